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

  // Starts folding one write into the write hash: `table` identifies the
  // table (a StableHash of its name). The caller then adds the row written
  // to the returned hash (TupleSchema::AddImage: the new row; the deleted
  // row for kDelete), before the next write.
  StableHash& RecordWrite(uint64_t table, WriteKind kind) {
    wrote_ = true;
    write_state_.AddU64(table);
    write_state_.AddU64(static_cast<uint64_t>(kind));
    return write_state_;
  }
  // The write hash so far: 0 until the transaction writes.
  uint64_t write_hash() const { return wrote_ ? write_state_.digest() : 0; }

  void Commit();
  void Rollback();
  bool empty() const { return actions_.empty(); }
  size_t size() const { return actions_.size(); }

 private:
  void ResetWriteHash();

  Arena arena_;
  std::vector<UndoAction*> actions_;
  StableHash write_state_;
  bool wrote_ = false;
};

}  // namespace partita

#endif  // PARTITA_TXN_UNDO_LOG_H_
