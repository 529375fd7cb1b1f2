// UndoLog: the record of one transaction's writes, so they can be undone
// exactly (Rollback) or made permanent (Commit).
//
// Each write registers an UndoAction, allocated in the log's arena. Rollback
// calls Undo() on every action, newest first; Commit calls Release() on
// every action, oldest first (freeing storage that deleted or overwritten
// rows still held). Both then reset the arena, keeping its first block, so a
// steady workload allocates nothing here.
//
// The log also keeps the transaction's write hash: every write (table,
// kind, row image) folded in order into one 64-bit StableHash, the value
// replicas compare to prove they wrote the same rows. It is 0 for a
// transaction that wrote nothing; Commit and Rollback reset it to 0.
//
// Thread model: partition-confined (one per Engine).
#ifndef PARTITA_TXN_UNDO_LOG_H_
#define PARTITA_TXN_UNDO_LOG_H_

#include <cstdint>
#include <vector>

#include "common/arena.h"
#include "common/stable_hash.h"

namespace partita {

class UndoAction {
 public:
  // Reverses the write. Runs at most once, and only after every later
  // action of the transaction was undone.
  virtual void Undo() = 0;
  // The transaction committed: free what only Undo() would have needed.
  virtual void Release() = 0;

 protected:
  // Actions live in the arena; their destructors never run.
  ~UndoAction() = default;
};

// What a write did, as the write hash records it (values are part of the
// hash: never renumber).
enum class WriteKind : uint8_t { kInsert = 1, kDelete = 2, kUpdate = 3 };

class UndoLog {
 public:
  UndoLog() : arena_(16 * 1024) {}
  UndoLog(const UndoLog&) = delete;
  UndoLog& operator=(const UndoLog&) = delete;
  // An uncommitted transaction at destruction is rolled back.
  ~UndoLog() { Rollback(); }

  // Constructs an action of type T in the arena and registers it.
  template <typename T, typename... Args>
  T* Add(Args&&... args) {
    T* action = arena_.New<T>(std::forward<Args>(args)...);
    actions_.push_back(action);
    return action;
  }

  // Arena for data actions keep (old tuple images).
  Arena* arena() { return &arena_; }

  // Folds one write into the write hash: `table` identifies the table (a
  // StableHash of its name), `image` the row written (TupleSchema::HashImage
  // of the new row; of the deleted row for kDelete).
  void RecordWrite(uint64_t table, WriteKind kind, uint64_t image) {
    StableHash h(write_hash_);
    h.AddU64(table);
    h.AddU64(static_cast<uint64_t>(kind));
    h.AddU64(image);
    write_hash_ = h.digest();
  }
  uint64_t write_hash() const { return write_hash_; }

  void Commit();
  void Rollback();
  bool empty() const { return actions_.empty(); }
  size_t size() const { return actions_.size(); }

 private:
  Arena arena_;
  std::vector<UndoAction*> actions_;
  uint64_t write_hash_ = 0;
};

}  // namespace partita

#endif  // PARTITA_TXN_UNDO_LOG_H_
