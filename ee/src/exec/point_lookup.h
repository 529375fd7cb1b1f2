// PointLookup: the dedicated path of a statement that reads one row by the
// whole key of a unique hash index, with every key part a statement
// parameter — `SELECT a, b FROM t WHERE pk = ?` — chosen once when the
// statement is compiled (Match) and run instead of its executor tree.
//
// It gives the same result bytes as the generic plan (an INDEX_SCAN with no
// residual predicate, optionally under a PROJECTION of plain column
// references): a key with a NULL part finds nothing; otherwise the row found
// is decoded column by column straight into the result writer, without the
// Open/Next chain, key expressions, an index cursor or a full-row decode.
// The generic executor tree is still built (it checks the plan) and serves
// EXPLAIN-like uses; only execution takes this path.
//
// Ownership: holds pointers to a table and index of the LoadedCatalog that
// owns the statement (and so outlives it). Thread model: partition-confined.
#ifndef PARTITA_EXEC_POINT_LOOKUP_H_
#define PARTITA_EXEC_POINT_LOOKUP_H_

#include <memory>
#include <vector>

#include "common/arena.h"
#include "exec/plan_builder.h"
#include "exec/result_writer.h"
#include "index/table_index.h"
#include "plan.pb.h"
#include "storage/table.h"

namespace partita {

class PointLookup {
 public:
  // Returns the dedicated path for `plan`, or nullptr when the plan has
  // another shape. REQUIRES: BuildPlan(plan, ctx) succeeded (references are
  // valid).
  static std::unique_ptr<PointLookup> Match(const proto::PlanNode& plan, const PlanBuildContext& ctx);

  PointLookup(const Table* table, const TableIndex* index, std::vector<int> key_parameters,
              std::vector<int> columns);
  PointLookup(const PointLookup&) = delete;
  PointLookup& operator=(const PointLookup&) = delete;

  // Looks the key up in `params` (the bound statement parameters) and adds
  // the row found, if any, to the writer's current table.
  // REQUIRES: `params` holds every parameter the key names.
  Status Run(const Value* params, ResultWriter* writer, Arena* arena);

 private:
  const Table* table_;
  const TableIndex* index_;
  std::vector<int> key_parameters_;  // parameter index per key column
  std::vector<int> columns_;         // table column per result column
  std::vector<Value> key_;
  std::vector<Value> row_;
};

}  // namespace partita

#endif  // PARTITA_EXEC_POINT_LOOKUP_H_
