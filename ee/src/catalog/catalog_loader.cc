// Builds a LoadedCatalog from proto::Catalog, validating as it goes.
#include "catalog/loaded_catalog.h"

#include "errors.pb.h"
#include "exec/plan_builder.h"
#include "index/hash_index.h"
#include "index/ordered_index.h"
#include "plan.pb.h"

namespace partita {
namespace {

constexpr int kSupportedCatalogFormat = 1;

Status Bad(const std::string& what) { return Status(proto::ERROR_CODE_BAD_CATALOG, what); }

bool IsColumnType(int t) {
  return IsKnownValueType(t) && t != proto::VALUE_TYPE_NULL && t != proto::VALUE_TYPE_BOOLEAN;
}

Result<std::vector<ColumnLayout>> Columns(const proto::Table& t) {
  std::vector<ColumnLayout> columns;
  absl::flat_hash_map<std::string, int> seen;
  for (int i = 0; i < t.columns_size(); ++i) {
    const proto::Column& c = t.columns(i);
    const std::string where = "table " + t.name() + " column " + std::to_string(i) + " (" + c.name() + ")";
    if (c.name().empty()) return Bad(where + ": empty name");
    if (!seen.emplace(c.name(), i).second) return Bad(where + ": duplicate column name");
    if (!IsColumnType(c.type())) return Bad(where + ": invalid type " + std::to_string(c.type()));
    const ValueType type = FromProto(c.type());
    if (IsVariableLengthType(type) && c.max_length() <= 0) return Bad(where + ": " + std::string(TypeName(type)) + " needs max_length > 0");
    ColumnLayout layout;
    layout.name = c.name();
    layout.type = type;
    layout.max_length = IsVariableLengthType(type) ? c.max_length() : 0;
    layout.nullable = c.nullable();
    columns.push_back(std::move(layout));
  }
  if (columns.empty()) return Bad("table " + t.name() + " has no columns");
  return columns;
}

}  // namespace

class CatalogLoader {
 public:
  CatalogLoader(const proto::Catalog& catalog, Arena* view_arena) : catalog_(catalog), view_arena_(view_arena) {}

  Result<std::unique_ptr<LoadedCatalog>> Load() {
    out_ = std::unique_ptr<LoadedCatalog>(new LoadedCatalog());
    if (catalog_.format_version() != kSupportedCatalogFormat) {
      return Bad("catalog format version " + std::to_string(catalog_.format_version()) + " is not supported (expected " +
                 std::to_string(kSupportedCatalogFormat) + ")");
    }
    for (const proto::Table& t : catalog_.tables()) PARTITA_RETURN_IF_ERROR(AddTable(t));
    for (int i = 0; i < catalog_.tables_size(); ++i) PARTITA_RETURN_IF_ERROR(AddIndexes(catalog_.tables(i), i));
    for (int i = 0; i < catalog_.tables_size(); ++i) {
      if (catalog_.tables(i).has_view()) PARTITA_RETURN_IF_ERROR(AddView(catalog_.tables(i), i));
    }
    for (const proto::Statement& s : catalog_.statements()) PARTITA_RETURN_IF_ERROR(AddStatement(s));
    FindPartitionKeyIndexes();
    return std::move(out_);
  }

 private:
  Status AddTable(const proto::Table& t) {
    if (t.name().empty()) return Bad("a table has an empty name");
    if (out_->tables_by_name_.contains(t.name())) return Bad("duplicate table name " + t.name());
    Result<std::vector<ColumnLayout>> columns = Columns(t);
    if (!columns.ok()) return columns.status();
    const int visible = static_cast<int>(columns.value().size());
    if (t.partition_column() < -1 || t.partition_column() >= visible) {
      return Bad("table " + t.name() + ": partition_column " + std::to_string(t.partition_column()) + " out of range");
    }
    if (t.has_view()) AddHiddenViewColumns(t.view(), &columns.value());
    auto table = std::make_unique<Table>(t.name(), TupleSchema(std::move(columns).value()), visible);
    out_->tables_by_name_[t.name()] = table.get();
    out_->tables_.push_back(std::move(table));
    return Status::OK();
  }

  // Row count, then a non-NULL count per SUM (materialized_view.h).
  static void AddHiddenViewColumns(const proto::MaterializedView& v, std::vector<ColumnLayout>* columns) {
    auto add = [&](const std::string& name) {
      ColumnLayout c;
      c.name = name;
      c.type = ValueType::kBigInt;
      c.nullable = false;
      columns->push_back(c);
    };
    add("$row_count");
    for (int i = 0; i < v.aggregates_size(); ++i) {
      if (v.aggregates(i).kind() == proto::AGGREGATE_KIND_SUM) add("$nonnull_" + std::to_string(i));
    }
  }

  Status AddIndexes(const proto::Table& t, int position) {
    Table* table = out_->tables_[position].get();
    const int visible = table->visible_column_count();
    absl::flat_hash_map<std::string, int> names;
    int primary_keys = 0;
    for (const proto::Index& ix : t.indexes()) {
      const std::string where = "index " + ix.name() + " of table " + t.name();
      if (ix.name().empty()) return Bad("table " + t.name() + " has an index with an empty name");
      if (!names.emplace(ix.name(), 0).second) return Bad(where + ": duplicate index name");
      if (ix.kind() != proto::INDEX_KIND_HASH && ix.kind() != proto::INDEX_KIND_ORDERED) return Bad(where + ": unknown kind");
      if (ix.column_indexes().empty()) return Bad(where + ": no key columns");
      std::vector<int> cols;
      for (const int c : ix.column_indexes()) {
        if (c < 0 || c >= visible) return Bad(where + ": key column " + std::to_string(c) + " out of range");
        cols.push_back(c);
      }
      if (ix.primary_key() && (!ix.unique() || ++primary_keys > 1)) {
        return Bad(where + ": a table has at most one primary key, and it is unique");
      }
      if (static_cast<int>(table->indexes().size()) >= Table::kMaxIndexes - 1) return Bad(where + ": too many indexes");
      table->AddIndex(MakeIndex(ix.name(), ix.constraint_name().empty() ? ix.name() : ix.constraint_name(),
                                ix.kind() == proto::INDEX_KIND_HASH ? IndexKind::kHash : IndexKind::kOrdered, table,
                                std::move(cols), ix.unique(), ix.primary_key()));
    }
    return Status::OK();
  }

  // Fills partition_key_indexes_. REQUIRES: tables, indexes and views loaded (checked).
  void FindPartitionKeyIndexes() {
    for (int i = 0; i < catalog_.tables_size(); ++i) {
      const int column = PartitionKeyColumn(catalog_.tables(i));
      if (column < 0) continue;
      const Table& table = *out_->tables_[i];
      const bool string_key = IsVariableLengthType(table.schema().column(column).type);
      for (const auto& ix : table.indexes()) {
        if (ix->kind() == IndexKind::kHash && ix->key().columns() == std::vector<int>{column}) {
          out_->partition_key_indexes_.push_back({static_cast<const HashIndex*>(ix.get()), string_key});
        }
      }
    }
  }

  // The column of `t` that holds its rows' partitioning value, or -1: a
  // table's partition column; for a view of a partitioned table, its
  // group-by column over the source's partition column, if it has one.
  int PartitionKeyColumn(const proto::Table& t) const {
    if (!t.has_view()) return t.partition_column();
    for (const proto::Table& source : catalog_.tables()) {
      if (source.name() != t.view().source_table() || source.partition_column() < 0) continue;
      for (int k = 0; k < t.view().group_by_columns_size(); ++k) {
        if (t.view().group_by_columns(k) == source.partition_column()) return k;
      }
    }
    return -1;
  }

  static std::unique_ptr<TableIndex> MakeIndex(std::string name, std::string constraint, IndexKind kind, Table* table,
                                               std::vector<int> cols, bool unique, bool primary_key) {
    IndexKey key(&table->schema(), std::move(cols));
    if (kind == IndexKind::kHash) {
      return std::make_unique<HashIndex>(std::move(name), std::move(constraint), std::move(key), unique, primary_key);
    }
    return std::make_unique<OrderedIndex>(std::move(name), std::move(constraint), std::move(key), unique, primary_key);
  }

  Status AddView(const proto::Table& t, int position) {
    const proto::MaterializedView& v = t.view();
    Table* view = out_->tables_[position].get();
    const std::string where = "materialized view " + t.name();
    Table* source = out_->FindTable(v.source_table());
    if (source == nullptr) return Bad(where + ": unknown source table '" + v.source_table() + "'");
    if (source->visible_column_count() != source->schema().column_count()) return Bad(where + ": the source is a view");
    const int groups = v.group_by_columns_size();
    if (groups + v.aggregates_size() != view->visible_column_count()) {
      return Bad(where + ": needs " + std::to_string(groups + v.aggregates_size()) +
                 " columns (group-by columns, then one per aggregate)");
    }
    std::vector<int> group_columns;
    for (int i = 0; i < groups; ++i) {
      const int c = v.group_by_columns(i);
      if (c < 0 || c >= source->visible_column_count()) return Bad(where + ": group-by column " + std::to_string(c) + " out of range");
      if (view->schema().column(i).type != source->schema().column(c).type) {
        return Bad(where + ": column " + view->schema().column(i).name + " must have the type of " +
                   source->name() + "." + source->schema().column(c).name);
      }
      group_columns.push_back(c);
    }
    const TableIndex* group_index = nullptr;
    if (groups > 0) {
      for (const auto& ix : view->indexes()) {
        std::vector<int> expected(groups);
        for (int i = 0; i < groups; ++i) expected[i] = i;
        if (ix->unique() && ix->key().columns() == expected) group_index = ix.get();
      }
      if (group_index == nullptr) return Bad(where + ": needs a unique index over its group-by columns");
    }
    std::vector<MaterializedView::Aggregate> aggregates;
    int next_hidden = view->visible_column_count() + 1;
    for (int i = 0; i < v.aggregates_size(); ++i) {
      Result<MaterializedView::Aggregate> agg = ViewAggregate(where, v, i, source, view, group_columns, &next_hidden);
      if (!agg.ok()) return agg.status();
      aggregates.push_back(agg.value());
    }
    std::unique_ptr<Expression> predicate;
    if (v.has_predicate()) {
      Result<std::unique_ptr<Expression>> p =
          BuildExpression(v.predicate(), ExpressionScope{source->schema().column_count(), 0});
      if (!p.ok()) return Bad(where + ": predicate: " + p.status().message());
      predicate = std::move(p).value();
    }
    auto mv = std::make_unique<MaterializedView>(source, view, std::move(group_columns), std::move(aggregates),
                                                 view->visible_column_count(), std::move(predicate), group_index,
                                                 view_arena_);
    source->AddListener(mv.get());
    out_->views_.push_back(std::move(mv));
    return Status::OK();
  }

  Result<MaterializedView::Aggregate> ViewAggregate(const std::string& where, const proto::MaterializedView& v, int i,
                                                    Table* source, Table* view, const std::vector<int>& group_columns,
                                                    int* next_hidden) {
    const auto& a = v.aggregates(i);
    MaterializedView::Aggregate agg;
    agg.kind = a.kind();
    agg.view_column = v.group_by_columns_size() + i;
    const ValueType out_type = view->schema().column(agg.view_column).type;
    const std::string col = where + " aggregate " + std::to_string(i);
    switch (a.kind()) {
      case proto::AGGREGATE_KIND_COUNT_STAR:
        if (out_type != ValueType::kBigInt) return Bad(col + ": COUNT(*) column must be BIGINT");
        return agg;
      case proto::AGGREGATE_KIND_COUNT:
      case proto::AGGREGATE_KIND_SUM:
      case proto::AGGREGATE_KIND_MIN:
      case proto::AGGREGATE_KIND_MAX: break;
      default: return Bad(col + ": only COUNT(*), COUNT, SUM, MIN and MAX are maintained incrementally");
    }
    if (a.source_column() < 0 || a.source_column() >= source->visible_column_count()) {
      return Bad(col + ": source column out of range");
    }
    agg.source_column = a.source_column();
    const ValueType in_type = source->schema().column(agg.source_column).type;
    if (a.kind() == proto::AGGREGATE_KIND_COUNT && out_type != ValueType::kBigInt) return Bad(col + ": COUNT column must be BIGINT");
    if (a.kind() == proto::AGGREGATE_KIND_SUM) {
      const bool ok = (IsIntegerType(in_type) && out_type == ValueType::kBigInt) ||
                      (in_type == ValueType::kFloat && out_type == ValueType::kFloat) ||
                      (in_type == ValueType::kDecimal && out_type == ValueType::kDecimal);
      if (!ok) return Bad(col + ": SUM of " + std::string(TypeName(in_type)) + " must be stored as BIGINT (integers), FLOAT or DECIMAL");
      agg.nonnull_column = (*next_hidden)++;
    }
    if (a.kind() == proto::AGGREGATE_KIND_MIN || a.kind() == proto::AGGREGATE_KIND_MAX) {
      if (out_type != in_type) return Bad(col + ": MIN/MAX column must have the source column's type");
      agg.extreme_index = ExtremeIndex(source, group_columns, agg.source_column, view->name(), i);
    }
    return agg;
  }

  // An ordered index of `source` keyed (group columns..., column); creates a
  // hidden one when the schema has none.
  static const TableIndex* ExtremeIndex(Table* source, const std::vector<int>& group_columns, int column,
                                        const std::string& view_name, int aggregate) {
    std::vector<int> wanted = group_columns;
    wanted.push_back(column);
    for (const auto& ix : source->indexes()) {
      const auto& cols = ix->key().columns();
      if (ix->kind() == IndexKind::kOrdered && cols.size() >= wanted.size() &&
          std::equal(wanted.begin(), wanted.end(), cols.begin())) {
        return ix.get();
      }
    }
    const std::string name = "$" + view_name + "_EXTREME_" + std::to_string(aggregate);
    source->AddIndex(MakeIndex(name, name, IndexKind::kOrdered, source, std::move(wanted), false, false));
    return source->indexes().back().get();
  }

  Status AddStatement(const proto::Statement& s) {
    if (s.name().empty()) return Bad("a statement has an empty name");
    if (out_->statement_ids_.contains(s.name())) return Bad("duplicate statement " + s.name());
    Result<CompiledStatement> cs = out_->Compile(s);
    if (!cs.ok()) return cs.status();
    out_->statement_ids_[s.name()] = static_cast<int>(out_->statements_.size());
    out_->statements_.push_back(std::move(cs).value());
    return Status::OK();
  }

  const proto::Catalog& catalog_;
  Arena* view_arena_;
  std::unique_ptr<LoadedCatalog> out_;
};

LoadedCatalog::~LoadedCatalog() = default;

Result<CompiledStatement> LoadedCatalog::Compile(const proto::Statement& s) const {
  const std::string where = "statement " + s.name();
  CompiledStatement cs;
  cs.name = s.name();
  cs.read_only = s.read_only();
  for (const int t : s.parameter_types()) {
    if (!IsColumnType(t)) return Bad(where + ": invalid parameter type " + std::to_string(t));
    cs.parameter_types.push_back(FromProto(static_cast<proto::ValueType>(t)));
  }
  PlanBuildContext ctx;
  ctx.find_table = [this](std::string_view name) { return FindTable(name); };
  ctx.param_count = static_cast<int32_t>(cs.parameter_types.size());
  Result<std::unique_ptr<Executor>> root = BuildPlan(s.plan(), ctx);
  if (!root.ok()) return Status(root.status().code(), where + ": " + root.status().message());
  cs.root = std::move(root).value();
  cs.point_lookup = PointLookup::Match(s.plan(), ctx);
  if (cs.point_lookup == nullptr) cs.parameter_insert = ParameterInsert::Match(s.plan(), ctx);
  std::vector<std::pair<std::string, ValueType>> columns;
  for (const auto& c : s.plan().output_schema()) {
    if (!IsColumnType(c.type()) && c.type() != proto::VALUE_TYPE_BOOLEAN) {
      return Bad(where + ": output column " + c.name() + " has invalid type");
    }
    columns.emplace_back(c.name(), FromProto(c.type()));
  }
  cs.result_header = ResultHeader::Make(columns);
  return cs;
}

Table* LoadedCatalog::FindTable(std::string_view name) const {
  auto it = tables_by_name_.find(std::string(name));
  return it == tables_by_name_.end() ? nullptr : it->second;
}

Result<std::unique_ptr<LoadedCatalog>> LoadedCatalog::Load(const proto::Catalog& catalog, Arena* view_arena) {
  CatalogLoader loader(catalog, view_arena);
  return loader.Load();
}

}  // namespace partita
