// AggregateExecutor: GROUP BY with COUNT(*), COUNT, SUM, MIN, MAX, AVG and
// COUNT(DISTINCT), in one of three phases (plan.proto AggregatePhase):
//   COMPLETE  rows in, final aggregates out;
//   PARTIAL   per-partition step — AVG leaves as (SUM, COUNT);
//   MERGE     combines PARTIAL rows read positionally: counts are summed,
//             SUM/MIN/MAX re-applied, AVG = sum of sums / sum of counts.
// Groups are hashed (NULLs form one group) and returned in first-seen order,
// so input sorted on the group keys yields sorted output. Without GROUP BY
// one row is returned even for empty input. HAVING filters output rows.
#ifndef PARTITA_EXEC_AGGREGATE_EXECUTOR_H_
#define PARTITA_EXEC_AGGREGATE_EXECUTOR_H_

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "exec/executor.h"
#include "exec/row_utils.h"

namespace partita {

class AggregateExecutor final : public Executor {
 public:
  struct Aggregate {
    proto::AggregateKind kind;
    std::unique_ptr<Expression> argument;  // nullptr for COUNT(*) and MERGE
    ValueType type;                        // result type
  };

  AggregateExecutor(std::unique_ptr<Executor> child, std::vector<std::unique_ptr<Expression>> group_by,
                    std::vector<Aggregate> aggregates, proto::AggregatePhase phase,
                    std::unique_ptr<Expression> having);

  // Output columns for `aggregates` in `phase` (AVG is two when PARTIAL).
  static int OutputWidth(int group_by, const std::vector<proto::AggregateKind>& kinds, proto::AggregatePhase phase);

 protected:
  Status OpenImpl() override;
  Status NextImpl(const Value** row) override;

 private:
  struct Accumulator {
    int64_t count = 0;
    Value value;  // SUM, MIN, MAX; AVG's sum
    bool has_value = false;
    absl::flat_hash_set<RowRef, RowRefHash, RowRefEq>* distinct = nullptr;
  };
  struct Group {
    const Value* key;
    Accumulator* accumulators;
  };

  Status Consume(const Value* in);
  Status Accumulate(const Aggregate& agg, const Value* in, int input_column, Accumulator* acc);
  Status Finish(const Group& g, Value* out);
  Group NewGroup(const Value* key);

  std::vector<std::unique_ptr<Expression>> group_by_;
  std::vector<Aggregate> aggregates_;
  proto::AggregatePhase phase_;
  std::unique_ptr<Expression> having_;
  std::vector<int> merge_input_columns_;  // MERGE: input position per aggregate
  absl::flat_hash_map<RowRef, size_t, RowRefHash, RowRefEq> group_ids_;
  std::vector<Group> groups_;
  std::vector<std::unique_ptr<absl::flat_hash_set<RowRef, RowRefHash, RowRefEq>>> distinct_sets_;
  std::vector<Value> key_;
  std::vector<Value> row_;
  size_t next_ = 0;
};

}  // namespace partita

#endif  // PARTITA_EXEC_AGGREGATE_EXECUTOR_H_
