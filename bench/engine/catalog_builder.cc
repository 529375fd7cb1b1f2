#include "catalog_builder.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "plan.pb.h"

namespace partita::bench {
namespace {

proto::Expression Parameter(int index, proto::ValueType type) {
  proto::Expression e;
  e.set_kind(proto::EXPRESSION_KIND_PARAMETER);
  e.set_value_type(type);
  e.set_parameter_index(index);
  return e;
}

proto::Expression ColumnRef(int index, proto::ValueType type) {
  proto::Expression e;
  e.set_kind(proto::EXPRESSION_KIND_COLUMN);
  e.set_value_type(type);
  e.set_column_index(index);
  return e;
}

void AddOutputColumn(proto::PlanNode* node, const proto::Column& column) {
  proto::OutputColumn* out = node->add_output_schema();
  out->set_name(column.name());
  out->set_type(column.type());
}

void SetTableSchema(proto::PlanNode* node, const proto::Table& table) {
  for (const proto::Column& column : table.columns()) AddOutputColumn(node, column);
}

const proto::Index* PrimaryKey(const proto::Table& table) {
  for (const proto::Index& index : table.indexes()) {
    if (index.primary_key()) return &index;
  }
  return nullptr;
}

[[noreturn]] void Die(std::string_view what, std::string_view name) {
  std::fprintf(stderr, "catalog_builder: %.*s: %.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(name.size()), name.data());
  std::abort();
}

}  // namespace

proto::Table* AddTable(proto::Catalog* catalog, std::string_view name, int partition_column) {
  catalog->set_format_version(kCatalogFormatVersion);
  proto::Table* table = catalog->add_tables();
  table->set_name(std::string(name));
  table->set_partition_column(partition_column);
  return table;
}

void AddColumn(proto::Table* table, std::string_view name, proto::ValueType type, int max_length) {
  proto::Column* column = table->add_columns();
  column->set_name(std::string(name));
  column->set_type(type);
  if (type == proto::VALUE_TYPE_VARCHAR || type == proto::VALUE_TYPE_VARBINARY) {
    if (max_length <= 0) Die("variable-length column without a length", name);
    column->set_max_length(max_length);
  }
  column->set_nullable(false);
}

void AddHashPrimaryKey(proto::Table* table, const std::vector<int>& columns) {
  proto::Index* index = table->add_indexes();
  index->set_name(table->name() + "_PK");
  index->set_kind(proto::INDEX_KIND_HASH);
  index->set_unique(true);
  index->set_primary_key(true);
  index->set_constraint_name("PK_" + table->name());
  for (int c : columns) index->add_column_indexes(c);
}

proto::Table* AddCountStarView(proto::Catalog* catalog, std::string_view name, const proto::Table& source,
                               const std::vector<int>& group_by, std::string_view count_column) {
  // The view's partitioning column is the position of the source's
  // partitioning column among the group-by columns, if it is one of them.
  int partition_column = kReplicated;
  for (size_t i = 0; i < group_by.size(); ++i) {
    if (group_by[i] == source.partition_column()) partition_column = static_cast<int>(i);
  }
  proto::Table* view_table = AddTable(catalog, name, partition_column);
  std::vector<int> key;
  for (size_t i = 0; i < group_by.size(); ++i) {
    const proto::Column& column = source.columns(group_by[i]);
    AddColumn(view_table, column.name(), column.type(), column.max_length());
    key.push_back(static_cast<int>(i));
  }
  AddColumn(view_table, count_column, proto::VALUE_TYPE_BIGINT);
  AddHashPrimaryKey(view_table, key);

  proto::MaterializedView* view = view_table->mutable_view();
  view->set_source_table(source.name());
  for (int c : group_by) view->add_group_by_columns(c);
  view->add_aggregates()->set_kind(proto::AGGREGATE_KIND_COUNT_STAR);
  return view_table;
}

void AddPrimaryKeyLookup(proto::Catalog* catalog, std::string_view name, std::string_view sql,
                         const proto::Table& table, const std::vector<int>& columns) {
  const proto::Index* pk = PrimaryKey(table);
  if (pk == nullptr) Die("lookup on a table without a primary key", table.name());

  proto::Statement* statement = catalog->add_statements();
  statement->set_name(std::string(name));
  statement->set_sql(std::string(sql));
  statement->set_read_only(true);

  proto::PlanNode scan;
  scan.set_kind(proto::PLAN_NODE_KIND_INDEX_SCAN);
  SetTableSchema(&scan, table);
  proto::IndexScanNode* index_scan = scan.mutable_index_scan();
  index_scan->set_table(table.name());
  index_scan->set_index(pk->name());
  for (int p = 0; p < pk->column_indexes_size(); ++p) {
    const proto::ValueType type = table.columns(pk->column_indexes(p)).type();
    *index_scan->add_lookup_key() = Parameter(p, type);
    statement->add_parameter_types(type);
  }

  if (columns.empty()) {
    *statement->mutable_plan() = std::move(scan);
    return;
  }
  proto::PlanNode* projection = statement->mutable_plan();
  projection->set_kind(proto::PLAN_NODE_KIND_PROJECTION);
  for (int c : columns) {
    const proto::Column& column = table.columns(c);
    AddOutputColumn(projection, column);
    *projection->mutable_projection()->add_columns() = ColumnRef(c, column.type());
  }
  *projection->add_children() = std::move(scan);
}

void AddInsert(proto::Catalog* catalog, std::string_view name, std::string_view sql, const proto::Table& table,
               bool upsert) {
  proto::Statement* statement = catalog->add_statements();
  statement->set_name(std::string(name));
  statement->set_sql(std::string(sql));
  statement->set_read_only(false);

  proto::PlanNode* insert = statement->mutable_plan();
  insert->set_kind(proto::PLAN_NODE_KIND_INSERT);
  insert->mutable_insert()->set_table(table.name());
  insert->mutable_insert()->set_upsert(upsert);
  proto::OutputColumn* count = insert->add_output_schema();
  count->set_name("modified_tuples");
  count->set_type(proto::VALUE_TYPE_BIGINT);

  proto::PlanNode* values = insert->add_children();
  values->set_kind(proto::PLAN_NODE_KIND_VALUES);
  SetTableSchema(values, table);
  proto::ValuesNode::Row* row = values->mutable_values()->add_rows();
  for (int c = 0; c < table.columns_size(); ++c) {
    const proto::ValueType type = table.columns(c).type();
    *row->add_columns() = Parameter(c, type);
    statement->add_parameter_types(type);
  }
}

const proto::Table& FindTable(const proto::Catalog& catalog, std::string_view name) {
  for (const proto::Table& table : catalog.tables()) {
    if (table.name() == name) return table;
  }
  Die("no such table", name);
}

}  // namespace partita::bench
