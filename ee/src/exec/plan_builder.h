// PlanBuilder: turns a proto::PlanNode tree into an executor tree, checking
// every reference (tables, indexes, columns, parameters, child counts, output
// widths) so a bad plan is a BAD_PLAN error at catalog load, never a crash at
// execution.
#ifndef PARTITA_EXEC_PLAN_BUILDER_H_
#define PARTITA_EXEC_PLAN_BUILDER_H_

#include <functional>
#include <memory>
#include <string_view>

#include "exec/executor.h"
#include "plan.pb.h"
#include "storage/table.h"

namespace partita {

struct PlanBuildContext {
  // Resolves a table (or view) name; nullptr when there is none.
  std::function<Table*(std::string_view)> find_table;
  // Number of statement parameters.
  int32_t param_count = 0;
  // Inside a subquery's plan: the number of its arguments (OUTER_COLUMN).
  int32_t outer_count = 0;
};

Result<std::unique_ptr<Executor>> BuildPlan(const proto::PlanNode& node, const PlanBuildContext& ctx);

}  // namespace partita

#endif  // PARTITA_EXEC_PLAN_BUILDER_H_
