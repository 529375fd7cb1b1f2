#include "testing/catalog_builder.h"

#include <stdexcept>

#include "plan.pb.h"

namespace partita::testing {

proto::Expression Col(int index, ValueType type) {
  proto::Expression e;
  e.set_kind(proto::EXPRESSION_KIND_COLUMN);
  e.set_column_index(index);
  e.set_value_type(ToProto(type));
  return e;
}

proto::Expression Param(int index, ValueType type) {
  proto::Expression e;
  e.set_kind(proto::EXPRESSION_KIND_PARAMETER);
  e.set_parameter_index(index);
  e.set_value_type(ToProto(type));
  return e;
}

proto::Expression ConstInt(int64_t v, ValueType type) {
  proto::Expression e;
  e.set_kind(proto::EXPRESSION_KIND_CONSTANT);
  e.set_value_type(ToProto(type));
  e.mutable_constant()->set_type(ToProto(type));
  e.mutable_constant()->set_int_value(v);
  return e;
}

proto::Expression ConstString(const std::string& s) {
  proto::Expression e;
  e.set_kind(proto::EXPRESSION_KIND_CONSTANT);
  e.set_value_type(proto::VALUE_TYPE_VARCHAR);
  e.mutable_constant()->set_type(proto::VALUE_TYPE_VARCHAR);
  e.mutable_constant()->set_string_value(s);
  return e;
}

proto::Expression Binary(proto::ExpressionKind kind, proto::Expression a, proto::Expression b, ValueType type) {
  proto::Expression e;
  e.set_kind(kind);
  e.set_value_type(ToProto(type));
  *e.add_children() = std::move(a);
  *e.add_children() = std::move(b);
  return e;
}

CatalogBuilder& CatalogBuilder::Table(const std::string& name, int partition_column) {
  current_ = catalog_.add_tables();
  current_->set_name(name);
  current_->set_partition_column(partition_column);
  return *this;
}

CatalogBuilder& CatalogBuilder::Column(const std::string& name, ValueType type, int max_length, bool nullable) {
  proto::Column* c = current_->add_columns();
  c->set_name(name);
  c->set_type(ToProto(type));
  c->set_max_length(max_length);
  c->set_nullable(nullable);
  return *this;
}

CatalogBuilder& CatalogBuilder::Index(const std::string& name, std::vector<int> columns, proto::IndexKind kind,
                                      bool unique, bool primary_key) {
  proto::Index* ix = current_->add_indexes();
  ix->set_name(name);
  ix->set_kind(kind);
  ix->set_unique(unique);
  ix->set_primary_key(primary_key);
  for (const int c : columns) ix->add_column_indexes(c);
  return *this;
}

const proto::Table& CatalogBuilder::table(const std::string& name) const {
  for (const auto& t : catalog_.tables()) {
    if (t.name() == name) return t;
  }
  throw std::invalid_argument("no table " + name);
}

CatalogBuilder& CatalogBuilder::View(const std::string& name, const std::string& source, std::vector<int> group_by,
                                     std::vector<ViewAggregate> aggregates) {
  const proto::Table src = table(source);
  Table(name);
  proto::MaterializedView* v = current_->mutable_view();
  v->set_source_table(source);
  std::vector<int> key;
  for (size_t i = 0; i < group_by.size(); ++i) {
    const proto::Column& c = src.columns(group_by[i]);
    Column(c.name(), FromProto(c.type()), c.max_length(), c.nullable());
    v->add_group_by_columns(group_by[i]);
    key.push_back(static_cast<int>(i));
  }
  for (const ViewAggregate& a : aggregates) {
    auto* agg = v->add_aggregates();
    agg->set_kind(a.kind);
    agg->set_source_column(a.source_column);
    ValueType type = ValueType::kBigInt;
    int max_length = 0;
    if (a.kind == proto::AGGREGATE_KIND_MIN || a.kind == proto::AGGREGATE_KIND_MAX) {
      type = FromProto(src.columns(a.source_column).type());
      max_length = src.columns(a.source_column).max_length();
    } else if (a.kind == proto::AGGREGATE_KIND_SUM) {
      const ValueType in = FromProto(src.columns(a.source_column).type());
      type = IsIntegerType(in) ? ValueType::kBigInt : in;
    }
    Column(a.name, type, max_length, true);
  }
  if (!key.empty()) Index(name + "_PK", key, proto::INDEX_KIND_HASH, true, true);
  return *this;
}

CatalogBuilder& CatalogBuilder::Statement(const std::string& name, proto::PlanNode plan,
                                          std::vector<ValueType> params) {
  proto::Statement* s = catalog_.add_statements();
  s->set_name(name);
  *s->mutable_plan() = std::move(plan);
  for (const ValueType t : params) s->add_parameter_types(ToProto(t));
  return *this;
}

namespace {

void TableSchema(const proto::Table& t, proto::PlanNode* node) {
  for (const auto& c : t.columns()) {
    auto* out = node->add_output_schema();
    out->set_name(c.name());
    out->set_type(c.type());
  }
}

}  // namespace

proto::PlanNode CatalogBuilder::SeqScan(const std::string& table_name) const {
  proto::PlanNode n;
  n.set_kind(proto::PLAN_NODE_KIND_SEQ_SCAN);
  n.mutable_seq_scan()->set_table(table_name);
  TableSchema(table(table_name), &n);
  return n;
}

proto::PlanNode CatalogBuilder::SeqScanWhere(const std::string& table_name, proto::Expression predicate) const {
  proto::PlanNode n = SeqScan(table_name);
  *n.mutable_seq_scan()->mutable_predicate() = std::move(predicate);
  return n;
}

proto::PlanNode CatalogBuilder::IndexLookup(const std::string& table_name, const std::string& index,
                                            std::vector<proto::Expression> key) const {
  proto::PlanNode n;
  n.set_kind(proto::PLAN_NODE_KIND_INDEX_SCAN);
  auto* s = n.mutable_index_scan();
  s->set_table(table_name);
  s->set_index(index);
  for (auto& k : key) *s->add_lookup_key() = std::move(k);
  TableSchema(table(table_name), &n);
  return n;
}

proto::PlanNode CatalogBuilder::IndexRange(const std::string& table_name, const std::string& index,
                                           std::vector<proto::Expression> lower, bool lower_inclusive,
                                           std::vector<proto::Expression> upper, bool upper_inclusive,
                                           bool backward) const {
  proto::PlanNode n = IndexLookup(table_name, index, {});
  auto* s = n.mutable_index_scan();
  if (!lower.empty()) {
    for (auto& k : lower) *s->mutable_lower()->add_key() = std::move(k);
    s->mutable_lower()->set_inclusive(lower_inclusive);
  }
  if (!upper.empty()) {
    for (auto& k : upper) *s->mutable_upper()->add_key() = std::move(k);
    s->mutable_upper()->set_inclusive(upper_inclusive);
  }
  s->set_direction(backward ? proto::SCAN_DIRECTION_BACKWARD : proto::SCAN_DIRECTION_FORWARD);
  return n;
}

proto::PlanNode DmlCountSchema(proto::PlanNode node) {
  auto* out = node.add_output_schema();
  out->set_name("modified_tuples");
  out->set_type(proto::VALUE_TYPE_BIGINT);
  return node;
}

proto::PlanNode CatalogBuilder::InsertParams(const std::string& table_name, bool upsert) const {
  const proto::Table& t = table(table_name);
  proto::PlanNode values;
  values.set_kind(proto::PLAN_NODE_KIND_VALUES);
  auto* row = values.mutable_values()->add_rows();
  for (int i = 0; i < t.columns_size(); ++i) *row->add_columns() = Param(i, FromProto(t.columns(i).type()));
  TableSchema(t, &values);
  proto::PlanNode n;
  n.set_kind(proto::PLAN_NODE_KIND_INSERT);
  n.mutable_insert()->set_table(table_name);
  n.mutable_insert()->set_upsert(upsert);
  *n.add_children() = std::move(values);
  return DmlCountSchema(std::move(n));
}

proto::PlanNode CatalogBuilder::Delete(const std::string& table_name, proto::PlanNode scan) const {
  proto::PlanNode n;
  n.set_kind(proto::PLAN_NODE_KIND_DELETE);
  n.mutable_delete_()->set_table(table_name);
  *n.add_children() = std::move(scan);
  return DmlCountSchema(std::move(n));
}

proto::PlanNode CatalogBuilder::Update(const std::string& table_name, proto::PlanNode scan,
                                       std::vector<std::pair<int, proto::Expression>> assignments) const {
  proto::PlanNode n;
  n.set_kind(proto::PLAN_NODE_KIND_UPDATE);
  n.mutable_update()->set_table(table_name);
  for (auto& [col, e] : assignments) {
    auto* a = n.mutable_update()->add_assignments();
    a->set_column_index(col);
    *a->mutable_value() = std::move(e);
  }
  *n.add_children() = std::move(scan);
  return DmlCountSchema(std::move(n));
}

std::vector<ValueType> CatalogBuilder::ColumnTypes(const std::string& table_name) const {
  std::vector<ValueType> types;
  for (const auto& c : table(table_name).columns()) types.push_back(FromProto(c.type()));
  return types;
}

proto::PlanNode Project(proto::PlanNode child, std::vector<int> columns) {
  proto::PlanNode n;
  n.set_kind(proto::PLAN_NODE_KIND_PROJECTION);
  for (const int c : columns) {
    const auto& col = child.output_schema(c);
    *n.mutable_projection()->add_columns() = Col(c, FromProto(col.type()));
    *n.add_output_schema() = col;
  }
  *n.add_children() = std::move(child);
  return n;
}

proto::Expression ConstFloat(double v) {
  proto::Expression e;
  e.set_kind(proto::EXPRESSION_KIND_CONSTANT);
  e.set_value_type(proto::VALUE_TYPE_FLOAT);
  e.mutable_constant()->set_type(proto::VALUE_TYPE_FLOAT);
  e.mutable_constant()->set_float_value(v);
  return e;
}

proto::Expression ConstDecimal(const std::string& text) {
  proto::Expression e;
  e.set_kind(proto::EXPRESSION_KIND_CONSTANT);
  e.set_value_type(proto::VALUE_TYPE_DECIMAL);
  e.mutable_constant()->set_type(proto::VALUE_TYPE_DECIMAL);
  e.mutable_constant()->set_decimal_value(text);
  return e;
}

proto::Expression ConstBytes(const std::string& bytes) {
  proto::Expression e;
  e.set_kind(proto::EXPRESSION_KIND_CONSTANT);
  e.set_value_type(proto::VALUE_TYPE_VARBINARY);
  e.mutable_constant()->set_type(proto::VALUE_TYPE_VARBINARY);
  e.mutable_constant()->set_bytes_value(bytes);
  return e;
}

proto::Expression ConstNull(ValueType type) {
  proto::Expression e;
  e.set_kind(proto::EXPRESSION_KIND_CONSTANT);
  e.set_value_type(ToProto(type));
  e.mutable_constant()->set_type(ToProto(type));
  return e;
}

proto::Expression ConstValue(const Value& v) {
  if (v.is_null()) return ConstNull(v.type());
  switch (v.type()) {
    case ValueType::kFloat: return ConstFloat(v.float_value());
    case ValueType::kDecimal: return ConstDecimal(v.ToString());
    case ValueType::kVarchar: return ConstString(std::string(v.string_value()));
    case ValueType::kVarbinary: return ConstBytes(std::string(v.string_value()));
    default: return ConstInt(v.int_value(), v.type());
  }
}

proto::Expression Op(proto::ExpressionKind kind, std::vector<proto::Expression> children, ValueType type) {
  proto::Expression e;
  e.set_kind(kind);
  e.set_value_type(ToProto(type));
  for (auto& c : children) *e.add_children() = std::move(c);
  return e;
}

proto::PlanNode Node(proto::PlanNodeKind kind, std::vector<proto::PlanNode> children, const OutputColumns& columns) {
  proto::PlanNode n;
  n.set_kind(kind);
  for (auto& c : children) *n.add_children() = std::move(c);
  for (const auto& [name, type] : columns) {
    auto* out = n.add_output_schema();
    out->set_name(name);
    out->set_type(ToProto(type));
  }
  return n;
}

proto::PlanNode ValuesNode(std::vector<std::vector<proto::Expression>> rows, const OutputColumns& columns) {
  proto::PlanNode n = Node(proto::PLAN_NODE_KIND_VALUES, {}, columns);
  n.mutable_values();
  for (auto& r : rows) {
    auto* row = n.mutable_values()->add_rows();
    for (auto& e : r) *row->add_columns() = std::move(e);
  }
  return n;
}

proto::PlanNode ProjectExprs(proto::PlanNode child, std::vector<proto::Expression> exprs, const OutputColumns& columns) {
  std::vector<proto::PlanNode> children;
  children.push_back(std::move(child));
  proto::PlanNode n = Node(proto::PLAN_NODE_KIND_PROJECTION, std::move(children), columns);
  n.mutable_projection();
  for (auto& e : exprs) *n.mutable_projection()->add_columns() = std::move(e);
  return n;
}

}  // namespace partita::testing
