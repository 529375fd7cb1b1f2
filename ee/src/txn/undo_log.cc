#include "txn/undo_log.h"

namespace partita {

void UndoLog::Commit() {
  for (UndoAction* a : actions_) a->Release();
  actions_.clear();
  arena_.Reset();
  ResetWriteHash();
}

void UndoLog::Rollback() {
  for (auto it = actions_.rbegin(); it != actions_.rend(); ++it) (*it)->Undo();
  actions_.clear();
  arena_.Reset();
  ResetWriteHash();
}

void UndoLog::ResetWriteHash() {
  write_state_ = StableHash();
  wrote_ = false;
}

}  // namespace partita
