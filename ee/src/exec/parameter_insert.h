// ParameterInsert: the dedicated path of `INSERT [or UPSERT] INTO t VALUES
// (...)` with one row whose values are statement parameters or constants,
// chosen once when the statement is compiled (Match) and run instead of its
// INSERT <- VALUES executor pair.
//
// It writes exactly what InsertExecutor writes for that plan: the row is
// validated against the table's columns (conversions, NOT NULL, lengths),
// UPSERT updates the row with the same primary key if there is one, and the
// result is one BIGINT row, 1. Errors are the table's, as in the generic
// path.
//
// Ownership: holds a pointer to a table of the LoadedCatalog that owns the
// statement (and so outlives it); owns its constants. Thread model:
// partition-confined.
#ifndef PARTITA_EXEC_PARAMETER_INSERT_H_
#define PARTITA_EXEC_PARAMETER_INSERT_H_

#include <memory>
#include <vector>

#include "common/arena.h"
#include "exec/plan_builder.h"
#include "exec/result_writer.h"
#include "expr/expression.h"
#include "plan.pb.h"
#include "storage/table.h"
#include "txn/undo_log.h"

namespace partita {

class ParameterInsert {
 public:
  // Where a column's value comes from: parameter `parameter`, or (when it is
  // negative) `constant`'s value.
  struct Source {
    int parameter = -1;
    std::unique_ptr<Expression> constant;
  };

  // Returns the dedicated path for `plan`, or nullptr when the plan has
  // another shape. REQUIRES: BuildPlan(plan, ctx) succeeded.
  static std::unique_ptr<ParameterInsert> Match(const proto::PlanNode& plan, const PlanBuildContext& ctx);

  ParameterInsert(Table* table, bool upsert, std::vector<Source> sources);
  ParameterInsert(const ParameterInsert&) = delete;
  ParameterInsert& operator=(const ParameterInsert&) = delete;

  // Inserts (or upserts) the row made of `params` and the constants, and
  // adds the count row to the writer's current table.
  // REQUIRES: `params` holds every parameter a source names.
  Status Run(const Value* params, UndoLog* undo, ResultWriter* writer, Arena* arena);

 private:
  Status Write(UndoLog* undo, Arena* arena);

  Table* table_;
  bool upsert_;
  std::vector<Source> sources_;
  std::vector<Value> constants_;  // the value of each constant source
  std::vector<Value> row_;
  std::vector<Value> validated_;
  Value count_ = Value::BigInt(1);
};

}  // namespace partita

#endif  // PARTITA_EXEC_PARAMETER_INSERT_H_
