// HashJoinExecutor: an equality join (proto HashJoinNode). Open() runs the
// inner child (child 1) once and keeps its rows in a hash table keyed by the
// inner key expressions, charging each kept row to the statement's memory
// bound; NextImpl() reads outer rows (child 0), looks their keys up and emits
// outer ++ inner for each match that passes the residual predicate. A NULL
// key matches nothing (SQL equality); a LEFT join emits outer ++ NULLs for an
// outer row without a match. Keys of different numeric types match by value
// (HashValue and CompareValues agree across types).
//
// Ownership: owns its children and expressions; the kept rows live in the
// statement arena. Thread model: partition-confined.
#ifndef PARTITA_EXEC_HASH_JOIN_EXECUTOR_H_
#define PARTITA_EXEC_HASH_JOIN_EXECUTOR_H_

#include <unordered_map>
#include <vector>

#include "exec/executor.h"
#include "exec/row_utils.h"

namespace partita {

class HashJoinExecutor final : public Executor {
 public:
  // REQUIRES: outer_keys.size() == inner_keys.size() >= 1.
  HashJoinExecutor(std::unique_ptr<Executor> outer, std::unique_ptr<Executor> inner, bool left_outer,
                   std::vector<std::unique_ptr<Expression>> outer_keys,
                   std::vector<std::unique_ptr<Expression>> inner_keys, std::unique_ptr<Expression> predicate,
                   std::vector<ValueType> inner_types);

 protected:
  Status OpenImpl() override;
  Status NextImpl(const Value** row) override;

 private:
  using Table = std::unordered_multimap<RowRef, const Value*, RowRefHash, RowRefEq>;

  // Evaluates `keys` over `row` into `out`; *has_null iff a key is NULL.
  Status EvalKeys(const std::vector<std::unique_ptr<Expression>>& keys, const Value* row, std::vector<Value>* out,
                  bool* has_null);
  Status Build();
  // Starts matching the current outer row (row_'s outer part).
  Status Probe();

  bool left_outer_;
  std::vector<std::unique_ptr<Expression>> outer_keys_;
  std::vector<std::unique_ptr<Expression>> inner_keys_;
  std::unique_ptr<Expression> predicate_;
  std::vector<ValueType> inner_types_;
  Table table_;
  std::vector<Value> key_;
  std::vector<Value> row_;
  Table::const_iterator match_;
  Table::const_iterator match_end_;
  bool have_outer_ = false;
  bool matched_ = false;
};

}  // namespace partita

#endif  // PARTITA_EXEC_HASH_JOIN_EXECUTOR_H_
