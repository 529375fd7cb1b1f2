// TableListener: told of every write to a table, inside the writing
// transaction, after the table's own indexes were updated. Materialized
// views are listeners of their source table. An error return fails the
// write's statement (and so the transaction).
//
// Thread model: partition-confined.
#ifndef PARTITA_STORAGE_TABLE_LISTENER_H_
#define PARTITA_STORAGE_TABLE_LISTENER_H_

#include "partita/status.h"

namespace partita {

class UndoLog;

class TableListener {
 public:
  virtual ~TableListener() = default;
  // `tuple` was inserted (and is live).
  virtual Status OnInsert(const char* tuple, UndoLog* undo) = 0;
  // `tuple` was deleted: no longer live nor in the indexes; its bytes are
  // still readable.
  virtual Status OnDelete(const char* tuple, UndoLog* undo) = 0;
  // `tuple` now holds new values; `old_image` is a tuple-format copy of its
  // previous values (readable with the table's TupleSchema).
  virtual Status OnUpdate(const char* old_image, const char* tuple, UndoLog* undo) = 0;
};

}  // namespace partita

#endif  // PARTITA_STORAGE_TABLE_LISTENER_H_
