#include "exec/plan_builder.h"

#include "errors.pb.h"
#include "exec/aggregate_executor.h"
#include "exec/delete_executor.h"
#include "exec/distinct_executor.h"
#include "exec/filter_executor.h"
#include "exec/hash_join_executor.h"
#include "exec/index_nest_loop_join_executor.h"
#include "exec/index_scan_executor.h"
#include "exec/insert_executor.h"
#include "exec/limit_executor.h"
#include "exec/nest_loop_join_executor.h"
#include "exec/projection_executor.h"
#include "exec/receive_executor.h"
#include "exec/seq_scan_executor.h"
#include "exec/set_operation_executor.h"
#include "exec/sort_executor.h"
#include "exec/subquery_expression.h"
#include "exec/update_executor.h"
#include "exec/values_executor.h"
#include "plan.pb.h"

namespace partita {
namespace {

using ExprPtr = std::unique_ptr<Expression>;
using ExecPtr = std::unique_ptr<Executor>;

Status BadPlan(const proto::PlanNode& node, const std::string& what) {
  return Status(proto::ERROR_CODE_BAD_PLAN, proto::PlanNodeKind_Name(node.kind()) + ": " + what);
}

class Builder final : public SubqueryFactory {
 public:
  explicit Builder(const PlanBuildContext& ctx) : ctx_(ctx) {}

  Result<ExecPtr> Build(const proto::PlanNode& node);

  Result<ExprPtr> BuildSubquery(const proto::Expression& e, std::vector<ExprPtr> children) const override;

 private:
  // Builds `e` over an input row of `width` columns; absent -> nullptr.
  Status Expr(const proto::Expression& e, int width, bool present, ExprPtr* out) {
    if (!present) return Status::OK();
    Result<ExprPtr> r = BuildExpression(e, ExpressionScope{width, ctx_.param_count, ctx_.outer_count, this});
    if (!r.ok()) return r.status();
    *out = std::move(r).value();
    return Status::OK();
  }
  Status Exprs(const google::protobuf::RepeatedPtrField<proto::Expression>& es, int width,
               std::vector<ExprPtr>* out) {
    for (const auto& e : es) {
      ExprPtr p;
      PARTITA_RETURN_IF_ERROR(Expr(e, width, true, &p));
      out->push_back(std::move(p));
    }
    return Status::OK();
  }
  Result<Table*> FindTable(const proto::PlanNode& node, const std::string& name) {
    Table* t = ctx_.find_table(name);
    if (t == nullptr) return BadPlan(node, "unknown table '" + name + "'");
    return t;
  }
  Result<ExecPtr> Child(const proto::PlanNode& node, int i) { return Build(node.children(i)); }

  Result<ExecPtr> SeqScan(const proto::PlanNode& node);
  Result<std::unique_ptr<IndexScanExecutor>> IndexScan(const proto::PlanNode& node, const proto::IndexScanNode& scan,
                                                       int outer_width);
  Result<ExecPtr> Join(const proto::PlanNode& node);
  Result<ExecPtr> IndexJoin(const proto::PlanNode& node);
  Result<ExecPtr> HashJoin(const proto::PlanNode& node);
  Result<ExecPtr> Aggregate(const proto::PlanNode& node);
  Result<ExecPtr> Sort(const proto::PlanNode& node);
  Result<ExecPtr> Values(const proto::PlanNode& node);
  Result<ExecPtr> Receive(const proto::PlanNode& node);
  Result<ExecPtr> SetOperation(const proto::PlanNode& node);
  Result<ExecPtr> Dml(const proto::PlanNode& node);

  const PlanBuildContext& ctx_;
};

int ExpectedChildren(proto::PlanNodeKind kind) {
  switch (kind) {
    case proto::PLAN_NODE_KIND_SEQ_SCAN:
    case proto::PLAN_NODE_KIND_INDEX_SCAN:
    case proto::PLAN_NODE_KIND_VALUES:
    case proto::PLAN_NODE_KIND_RECEIVE: return 0;
    case proto::PLAN_NODE_KIND_NEST_LOOP_JOIN: return 2;
    case proto::PLAN_NODE_KIND_HASH_JOIN: return 2;
    case proto::PLAN_NODE_KIND_SET_OPERATION: return -1;  // checked by SetOperation()
    default: return 1;
  }
}

Result<ExecPtr> Builder::Build(const proto::PlanNode& node) {
  if (ExpectedChildren(node.kind()) >= 0 && node.children_size() != ExpectedChildren(node.kind())) {
    return BadPlan(node, "expected " + std::to_string(ExpectedChildren(node.kind())) + " children, got " +
                             std::to_string(node.children_size()));
  }
  Result<ExecPtr> built = Status();
  switch (node.kind()) {
    case proto::PLAN_NODE_KIND_SEQ_SCAN: built = SeqScan(node); break;
    case proto::PLAN_NODE_KIND_INDEX_SCAN: {
      Result<std::unique_ptr<IndexScanExecutor>> r = IndexScan(node, node.index_scan(), 0);
      if (!r.ok()) return r.status();
      built = ExecPtr(std::move(r).value());
      break;
    }
    case proto::PLAN_NODE_KIND_FILTER: {
      Result<ExecPtr> child = Child(node, 0);
      if (!child.ok()) return child;
      ExprPtr pred;
      PARTITA_RETURN_IF_ERROR(Expr(node.filter_predicate(), child.value()->width(), true, &pred));
      built = ExecPtr(std::make_unique<FilterExecutor>(std::move(child).value(), std::move(pred)));
      break;
    }
    case proto::PLAN_NODE_KIND_PROJECTION: {
      Result<ExecPtr> child = Child(node, 0);
      if (!child.ok()) return child;
      std::vector<ExprPtr> cols;
      PARTITA_RETURN_IF_ERROR(Exprs(node.projection().columns(), child.value()->width(), &cols));
      built = ExecPtr(std::make_unique<ProjectionExecutor>(std::move(child).value(), std::move(cols)));
      break;
    }
    case proto::PLAN_NODE_KIND_NEST_LOOP_JOIN: built = Join(node); break;
    case proto::PLAN_NODE_KIND_INDEX_NEST_LOOP_JOIN: built = IndexJoin(node); break;
    case proto::PLAN_NODE_KIND_HASH_JOIN: built = HashJoin(node); break;
    case proto::PLAN_NODE_KIND_AGGREGATE: built = Aggregate(node); break;
    case proto::PLAN_NODE_KIND_SORT: built = Sort(node); break;
    case proto::PLAN_NODE_KIND_LIMIT: {
      Result<ExecPtr> child = Child(node, 0);
      if (!child.ok()) return child;
      ExprPtr limit, offset;
      PARTITA_RETURN_IF_ERROR(Expr(node.limit().limit(), 0, node.limit().has_limit(), &limit));
      PARTITA_RETURN_IF_ERROR(Expr(node.limit().offset(), 0, node.limit().has_offset(), &offset));
      built = ExecPtr(std::make_unique<LimitExecutor>(std::move(child).value(), std::move(limit), std::move(offset)));
      break;
    }
    case proto::PLAN_NODE_KIND_DISTINCT: {
      Result<ExecPtr> child = Child(node, 0);
      if (!child.ok()) return child;
      built = ExecPtr(std::make_unique<DistinctExecutor>(std::move(child).value()));
      break;
    }
    case proto::PLAN_NODE_KIND_VALUES: built = Values(node); break;
    case proto::PLAN_NODE_KIND_RECEIVE: built = Receive(node); break;
    case proto::PLAN_NODE_KIND_SET_OPERATION: built = SetOperation(node); break;
    case proto::PLAN_NODE_KIND_INSERT:
    case proto::PLAN_NODE_KIND_UPDATE:
    case proto::PLAN_NODE_KIND_DELETE: built = Dml(node); break;
    default: return BadPlan(node, "unknown plan node kind " + std::to_string(node.kind()));
  }
  if (!built.ok()) return built;
  if (node.output_schema_size() != built.value()->width()) {
    return BadPlan(node, "output_schema has " + std::to_string(node.output_schema_size()) +
                             " columns but the node produces " + std::to_string(built.value()->width()));
  }
  return built;
}

Result<ExprPtr> Builder::BuildSubquery(const proto::Expression& e, std::vector<ExprPtr> children) const {
  SubqueryExpression::Kind kind;
  switch (e.subquery_kind()) {
    case proto::SUBQUERY_KIND_SCALAR: kind = SubqueryExpression::Kind::kScalar; break;
    case proto::SUBQUERY_KIND_EXISTS: kind = SubqueryExpression::Kind::kExists; break;
    case proto::SUBQUERY_KIND_IN: kind = SubqueryExpression::Kind::kIn; break;
    default:
      return Status(proto::ERROR_CODE_BAD_PLAN, "SUBQUERY with unknown subquery_kind " +
                                                    std::to_string(e.subquery_kind()));
  }
  const int first_argument = kind == SubqueryExpression::Kind::kIn ? 1 : 0;
  if (static_cast<int>(children.size()) < first_argument) {
    return Status(proto::ERROR_CODE_BAD_PLAN, "IN subquery without the value it tests");
  }
  PlanBuildContext inner = ctx_;
  inner.outer_count = static_cast<int32_t>(children.size()) - first_argument;
  Result<ExecPtr> plan = Builder(inner).Build(e.subquery());
  if (!plan.ok()) return plan.status();
  if (kind != SubqueryExpression::Kind::kExists && plan.value()->width() < 1) {
    return Status(proto::ERROR_CODE_BAD_PLAN, "a scalar or IN subquery's plan produces no column");
  }
  const ValueType type = kind == SubqueryExpression::Kind::kScalar ? FromProto(e.value_type()) : ValueType::kBoolean;
  return ExprPtr(std::make_unique<SubqueryExpression>(type, kind, std::move(plan).value(), std::move(children)));
}

Result<ExecPtr> Builder::SetOperation(const proto::PlanNode& node) {
  const proto::SetOperationKind kind = node.set_operation().kind();
  const bool binary = kind == proto::SET_OPERATION_KIND_INTERSECT || kind == proto::SET_OPERATION_KIND_EXCEPT;
  if (!binary && kind != proto::SET_OPERATION_KIND_UNION && kind != proto::SET_OPERATION_KIND_UNION_ALL) {
    return BadPlan(node, "unknown set operation kind " + std::to_string(kind));
  }
  if (binary ? node.children_size() != 2 : node.children_size() < 1) {
    return BadPlan(node, "wrong number of children: " + std::to_string(node.children_size()));
  }
  std::vector<ExecPtr> children;
  for (int i = 0; i < node.children_size(); ++i) {
    Result<ExecPtr> c = Child(node, i);
    if (!c.ok()) return c;
    if (c.value()->width() != node.output_schema_size()) {
      return BadPlan(node, "child " + std::to_string(i) + " has " + std::to_string(c.value()->width()) +
                               " columns, the node " + std::to_string(node.output_schema_size()));
    }
    children.push_back(std::move(c).value());
  }
  return ExecPtr(std::make_unique<SetOperationExecutor>(kind, node.output_schema_size(), std::move(children)));
}

Result<ExecPtr> Builder::SeqScan(const proto::PlanNode& node) {
  Result<Table*> table = FindTable(node, node.seq_scan().table());
  if (!table.ok()) return table.status();
  ExprPtr pred;
  PARTITA_RETURN_IF_ERROR(Expr(node.seq_scan().predicate(), table.value()->schema().column_count(),
                               node.seq_scan().has_predicate(), &pred));
  return ExecPtr(std::make_unique<SeqScanExecutor>(table.value(), std::move(pred)));
}

Result<std::unique_ptr<IndexScanExecutor>> Builder::IndexScan(const proto::PlanNode& node,
                                                              const proto::IndexScanNode& scan, int outer_width) {
  Result<Table*> table = FindTable(node, scan.table());
  if (!table.ok()) return table.status();
  TableIndex* index = table.value()->FindIndex(scan.index());
  if (index == nullptr) return BadPlan(node, "table " + scan.table() + " has no index '" + scan.index() + "'");
  const int key_size = index->key().size();
  std::vector<ExprPtr> lookup;
  PARTITA_RETURN_IF_ERROR(Exprs(scan.lookup_key(), outer_width, &lookup));
  IndexScanExecutor::Bound lower, upper;
  PARTITA_RETURN_IF_ERROR(Exprs(scan.lower().key(), outer_width, &lower.key));
  PARTITA_RETURN_IF_ERROR(Exprs(scan.upper().key(), outer_width, &upper.key));
  lower.inclusive = scan.lower().inclusive();
  upper.inclusive = scan.upper().inclusive();
  if (static_cast<int>(lookup.size()) > key_size || static_cast<int>(lower.key.size()) > key_size ||
      static_cast<int>(upper.key.size()) > key_size) {
    return BadPlan(node, "key longer than index " + scan.index() + " (" + std::to_string(key_size) + " columns)");
  }
  if (index->kind() == IndexKind::kHash && static_cast<int>(lookup.size()) != key_size) {
    return BadPlan(node, "hash index " + scan.index() + " needs an equality key on all " +
                             std::to_string(key_size) + " columns");
  }
  if (!lookup.empty() && (!lower.key.empty() || !upper.key.empty())) {
    return BadPlan(node, "an index scan has either a lookup key or range bounds, not both");
  }
  const TupleSchema& schema = table.value()->schema();
  auto comparable = [&](const std::vector<ExprPtr>& key) {
    for (size_t i = 0; i < key.size(); ++i) {
      const ValueType col = schema.column(index->key().column(static_cast<int>(i))).type;
      const ValueType k = key[i]->type();
      const bool ok = k == ValueType::kNull || (IsNumericType(col) && IsNumericType(k)) ||
                      (IsVariableLengthType(col) && IsVariableLengthType(k)) ||
                      (col == ValueType::kTimestamp && (k == ValueType::kTimestamp || IsIntegerType(k)));
      if (!ok) return false;
    }
    return true;
  };
  if (!comparable(lookup) || !comparable(lower.key) || !comparable(upper.key)) {
    return BadPlan(node, "key expression type does not match the columns of index " + scan.index());
  }
  ExprPtr pred;
  PARTITA_RETURN_IF_ERROR(Expr(scan.predicate(), schema.column_count(), scan.has_predicate(), &pred));
  const ScanOrder order =
      scan.direction() == proto::SCAN_DIRECTION_BACKWARD ? ScanOrder::kBackward : ScanOrder::kForward;
  return std::make_unique<IndexScanExecutor>(table.value(), index, std::move(lookup), std::move(lower),
                                             std::move(upper), order, std::move(pred));
}

Result<ExecPtr> Builder::Join(const proto::PlanNode& node) {
  Result<ExecPtr> outer = Child(node, 0);
  if (!outer.ok()) return outer;
  Result<ExecPtr> inner = Child(node, 1);
  if (!inner.ok()) return inner;
  const auto& join = node.nest_loop_join();
  ExprPtr pred;
  const int width = outer.value()->width() + inner.value()->width();
  PARTITA_RETURN_IF_ERROR(Expr(join.predicate(), width, join.has_predicate(), &pred));
  std::vector<ValueType> inner_types;
  for (const auto& c : node.children(1).output_schema()) inner_types.push_back(FromProto(c.type()));
  return ExecPtr(std::make_unique<NestLoopJoinExecutor>(std::move(outer).value(), std::move(inner).value(),
                                                        join.join_type() == proto::JOIN_TYPE_LEFT, std::move(pred),
                                                        std::move(inner_types)));
}

Result<ExecPtr> Builder::HashJoin(const proto::PlanNode& node) {
  if (!node.has_hash_join()) return BadPlan(node, "missing hash_join");
  const auto& join = node.hash_join();
  if (join.outer_keys_size() == 0 || join.outer_keys_size() != join.inner_keys_size()) {
    return BadPlan(node, "needs as many outer_keys as inner_keys, at least one (got " +
                             std::to_string(join.outer_keys_size()) + " and " +
                             std::to_string(join.inner_keys_size()) + ")");
  }
  Result<ExecPtr> outer = Child(node, 0);
  if (!outer.ok()) return outer;
  Result<ExecPtr> inner = Child(node, 1);
  if (!inner.ok()) return inner;
  std::vector<ExprPtr> outer_keys, inner_keys;
  PARTITA_RETURN_IF_ERROR(Exprs(join.outer_keys(), outer.value()->width(), &outer_keys));
  PARTITA_RETURN_IF_ERROR(Exprs(join.inner_keys(), inner.value()->width(), &inner_keys));
  ExprPtr pred;
  const int width = outer.value()->width() + inner.value()->width();
  PARTITA_RETURN_IF_ERROR(Expr(join.predicate(), width, join.has_predicate(), &pred));
  std::vector<ValueType> inner_types;
  for (const auto& c : node.children(1).output_schema()) inner_types.push_back(FromProto(c.type()));
  return ExecPtr(std::make_unique<HashJoinExecutor>(
      std::move(outer).value(), std::move(inner).value(), join.join_type() == proto::JOIN_TYPE_LEFT,
      std::move(outer_keys), std::move(inner_keys), std::move(pred), std::move(inner_types)));
}

Result<ExecPtr> Builder::IndexJoin(const proto::PlanNode& node) {
  Result<ExecPtr> outer = Child(node, 0);
  if (!outer.ok()) return outer;
  const auto& join = node.index_nest_loop_join();
  Result<std::unique_ptr<IndexScanExecutor>> inner = IndexScan(node, join.inner(), outer.value()->width());
  if (!inner.ok()) return inner.status();
  ExprPtr pred;
  const int width = outer.value()->width() + inner.value()->width();
  PARTITA_RETURN_IF_ERROR(Expr(join.predicate(), width, join.has_predicate(), &pred));
  return ExecPtr(std::make_unique<IndexNestLoopJoinExecutor>(std::move(outer).value(), std::move(inner).value(),
                                                             join.join_type() == proto::JOIN_TYPE_LEFT,
                                                             std::move(pred)));
}

Result<ExecPtr> Builder::Aggregate(const proto::PlanNode& node) {
  Result<ExecPtr> child = Child(node, 0);
  if (!child.ok()) return child;
  const auto& agg = node.aggregate();
  const int in_width = child.value()->width();
  const proto::AggregatePhase phase =
      agg.phase() == proto::AGGREGATE_PHASE_UNSPECIFIED ? proto::AGGREGATE_PHASE_COMPLETE : agg.phase();
  std::vector<ExprPtr> group_by;
  PARTITA_RETURN_IF_ERROR(Exprs(agg.group_by(), in_width, &group_by));
  std::vector<AggregateExecutor::Aggregate> aggregates;
  std::vector<proto::AggregateKind> kinds;
  for (const auto& a : agg.aggregates()) {
    if (!proto::AggregateKind_IsValid(a.kind()) || a.kind() == proto::AGGREGATE_KIND_UNSPECIFIED) {
      return BadPlan(node, "unknown aggregate kind " + std::to_string(a.kind()));
    }
    const bool distinct = a.kind() == proto::AGGREGATE_KIND_COUNT_DISTINCT ||
                          a.kind() == proto::AGGREGATE_KIND_SUM_DISTINCT || a.kind() == proto::AGGREGATE_KIND_AVG_DISTINCT;
    if (distinct && phase != proto::AGGREGATE_PHASE_COMPLETE) {
      return BadPlan(node, "a DISTINCT aggregate cannot be split into partial and merge phases");
    }
    const bool needs_argument = a.kind() != proto::AGGREGATE_KIND_COUNT_STAR && phase != proto::AGGREGATE_PHASE_MERGE;
    if (needs_argument && !a.has_argument()) return BadPlan(node, "aggregate without an argument");
    ExprPtr arg;
    PARTITA_RETURN_IF_ERROR(Expr(a.argument(), in_width, needs_argument, &arg));
    aggregates.push_back({a.kind(), std::move(arg), FromProto(a.value_type())});
    kinds.push_back(a.kind());
  }
  const int out_width = AggregateExecutor::OutputWidth(static_cast<int>(group_by.size()), kinds, phase);
  if (phase == proto::AGGREGATE_PHASE_MERGE &&
      AggregateExecutor::OutputWidth(static_cast<int>(group_by.size()), kinds, proto::AGGREGATE_PHASE_PARTIAL) >
          in_width) {
    return BadPlan(node, "MERGE input is narrower than the partial aggregates it combines");
  }
  ExprPtr having;
  PARTITA_RETURN_IF_ERROR(Expr(agg.having(), out_width, agg.has_having(), &having));
  return ExecPtr(std::make_unique<AggregateExecutor>(std::move(child).value(), std::move(group_by),
                                                     std::move(aggregates), phase, std::move(having)));
}

Result<ExecPtr> Builder::Sort(const proto::PlanNode& node) {
  Result<ExecPtr> child = Child(node, 0);
  if (!child.ok()) return child;
  std::vector<SortExecutor::Key> keys;
  for (const auto& k : node.sort().keys()) {
    SortExecutor::Key key;
    PARTITA_RETURN_IF_ERROR(Expr(k.expression(), child.value()->width(), true, &key.expression));
    key.descending = k.descending();
    key.nulls_last = k.nulls_last();
    keys.push_back(std::move(key));
  }
  return ExecPtr(std::make_unique<SortExecutor>(std::move(child).value(), std::move(keys)));
}

Result<ExecPtr> Builder::Values(const proto::PlanNode& node) {
  const int width = node.output_schema_size();
  std::vector<std::vector<ExprPtr>> rows;
  for (const auto& r : node.values().rows()) {
    if (r.columns_size() != width) {
      return BadPlan(node, "row has " + std::to_string(r.columns_size()) + " values, expected " +
                               std::to_string(width));
    }
    rows.emplace_back();
    PARTITA_RETURN_IF_ERROR(Exprs(r.columns(), 0, &rows.back()));
  }
  return ExecPtr(std::make_unique<ValuesExecutor>(width, std::move(rows)));
}

Result<ExecPtr> Builder::Receive(const proto::PlanNode& node) {
  if (node.node_case() != proto::PlanNode::kReceive) return BadPlan(node, "RECEIVE without its receive message");
  std::vector<ValueType> types;
  for (const auto& c : node.output_schema()) {
    if (!IsKnownValueType(c.type()) || c.type() == proto::VALUE_TYPE_NULL) {
      return BadPlan(node, "output column " + c.name() + " has invalid type " + std::to_string(c.type()));
    }
    types.push_back(FromProto(c.type()));
  }
  if (types.empty()) return BadPlan(node, "RECEIVE needs an output_schema (the input tables' columns)");
  return ExecPtr(std::make_unique<ReceiveExecutor>(node.receive().dependency_id(), std::move(types)));
}

Result<ExecPtr> Builder::Dml(const proto::PlanNode& node) {
  const std::string& name = node.kind() == proto::PLAN_NODE_KIND_INSERT   ? node.insert().table()
                            : node.kind() == proto::PLAN_NODE_KIND_UPDATE ? node.update().table()
                                                                          : node.delete_().table();
  Result<Table*> table = FindTable(node, name);
  if (!table.ok()) return table.status();
  Table* t = table.value();
  if (t->visible_column_count() != t->schema().column_count()) {
    return BadPlan(node, "materialized view " + name + " is maintained by the engine and cannot be written");
  }
  Result<ExecPtr> child = Child(node, 0);
  if (!child.ok()) return child;
  if (node.kind() == proto::PLAN_NODE_KIND_INSERT) {
    if (child.value()->width() != t->schema().column_count()) {
      return BadPlan(node, "INSERT into " + name + " needs " + std::to_string(t->schema().column_count()) +
                               " values per row, the input has " + std::to_string(child.value()->width()));
    }
    if (node.insert().upsert() && t->primary_key() == nullptr) {
      return BadPlan(node, "UPSERT into " + name + " needs a primary key");
    }
    const bool collect_first = node.children(0).kind() != proto::PLAN_NODE_KIND_VALUES;
    return ExecPtr(std::make_unique<InsertExecutor>(std::move(child).value(), t, node.insert().upsert(), collect_first));
  }
  Executor* scan = child.value().get();
  const bool is_scan = scan->kind() == Executor::Kind::kSeqScan || scan->kind() == Executor::Kind::kIndexScan;
  if (!is_scan || static_cast<TupleSource*>(scan)->table() != t) {
    return BadPlan(node, "the input of UPDATE/DELETE must be a scan of " + name);
  }
  if (node.kind() == proto::PLAN_NODE_KIND_DELETE) {
    return ExecPtr(std::make_unique<DeleteExecutor>(std::move(child).value(), t));
  }
  std::vector<UpdateExecutor::Assignment> assignments;
  for (const auto& a : node.update().assignments()) {
    if (a.column_index() < 0 || a.column_index() >= t->schema().column_count()) {
      return BadPlan(node, "UPDATE of " + name + " assigns column " + std::to_string(a.column_index()));
    }
    UpdateExecutor::Assignment assignment{a.column_index(), nullptr};
    PARTITA_RETURN_IF_ERROR(Expr(a.value(), t->schema().column_count(), true, &assignment.value));
    assignments.push_back(std::move(assignment));
  }
  return ExecPtr(std::make_unique<UpdateExecutor>(std::move(child).value(), t, std::move(assignments)));
}

}  // namespace

Result<std::unique_ptr<Executor>> BuildPlan(const proto::PlanNode& node, const PlanBuildContext& ctx) {
  Builder builder(ctx);
  return builder.Build(node);
}

}  // namespace partita
