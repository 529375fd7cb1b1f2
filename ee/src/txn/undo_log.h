// UndoLog: the record of one transaction's writes, so they can be undone
// exactly (Rollback) or made permanent (Commit).
//
// Each write registers an UndoAction, allocated in the log's arena. Rollback
// calls Undo() on every action, newest first; Commit calls Release() on
// every action, oldest first (freeing storage that deleted or overwritten
// rows still held). Both then reset the arena, keeping its first block, so a
// steady workload allocates nothing here.
//
// Thread model: partition-confined (one per Engine).
#ifndef PARTITA_TXN_UNDO_LOG_H_
#define PARTITA_TXN_UNDO_LOG_H_

#include <vector>

#include "common/arena.h"

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

  void Commit();
  void Rollback();
  bool empty() const { return actions_.empty(); }
  size_t size() const { return actions_.size(); }

 private:
  Arena arena_;
  std::vector<UndoAction*> actions_;
};

}  // namespace partita

#endif  // PARTITA_TXN_UNDO_LOG_H_
