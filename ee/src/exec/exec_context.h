// ExecContext: what every executor of one statement execution shares — the
// parameters, the statement arena, the transaction's undo log and timestamp.
// Valid for one execution; rebuilt by the Engine per statement call.
// Thread model: partition-confined.
#ifndef PARTITA_EXEC_EXEC_CONTEXT_H_
#define PARTITA_EXEC_EXEC_CONTEXT_H_

#include <vector>

#include "common/arena.h"
#include "exec/query_guard.h"
#include "expr/expression.h"
#include "partita/result_table.h"
#include "txn/undo_log.h"

namespace partita {

// An input table of RECEIVE nodes, parsed once per batch.
struct ReceivedTable {
  int32_t dependency_id = 0;
  ResultTableReader table;
};

struct ExecContext {
  const Value* params = nullptr;
  int32_t param_count = 0;
  // Strings and rows made during this statement; reset after it.
  Arena* arena = nullptr;
  UndoLog* undo = nullptr;
  int64_t txn_timestamp = 0;
  // The batch's dependency tables, in request order (RECEIVE); never null
  // during an execution.
  const std::vector<ReceivedTable>* received = nullptr;
  // Which statement execution this is: nonzero and distinct per execution of
  // an engine (what uncorrelated subqueries key their cached result on); 0
  // means unknown (nothing is cached).
  uint64_t execution = 0;
  // Inside a subquery's plan: its SUBQUERY expression's arguments.
  const Value* outer = nullptr;
  // The batch's memory, time and cancel bounds; null = unbounded (tests that
  // build a context by hand).
  QueryGuard* guard = nullptr;

  // An evaluation context reading `row`.
  EvalContext Eval(const Value* row) const {
    EvalContext e;
    e.row = row;
    e.params = params;
    e.param_count = param_count;
    e.arena = arena;
    e.txn_timestamp = txn_timestamp;
    e.outer = outer;
    e.exec = this;
    return e;
  }
};

}  // namespace partita

#endif  // PARTITA_EXEC_EXEC_CONTEXT_H_
