#include "txn/undo_log.h"

namespace partita {

void UndoLog::Commit() {
  for (UndoAction* a : actions_) a->Release();
  actions_.clear();
  arena_.Reset();
  write_hash_ = 0;
}

void UndoLog::Rollback() {
  for (auto it = actions_.rbegin(); it != actions_.rend(); ++it) (*it)->Undo();
  actions_.clear();
  arena_.Reset();
  write_hash_ = 0;
}

}  // namespace partita
