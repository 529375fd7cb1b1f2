#include "exec/point_lookup.h"

namespace partita {
namespace {

// The parameter index of each expression of `key`, or an empty vector when
// one of them is not a plain parameter.
std::vector<int> KeyParameters(const google::protobuf::RepeatedPtrField<proto::Expression>& key) {
  std::vector<int> out;
  for (const proto::Expression& e : key) {
    if (e.kind() != proto::EXPRESSION_KIND_PARAMETER || e.children_size() != 0) return {};
    out.push_back(e.parameter_index());
  }
  return out;
}

}  // namespace

std::unique_ptr<PointLookup> PointLookup::Match(const proto::PlanNode& plan, const PlanBuildContext& ctx) {
  const bool projected = plan.kind() == proto::PLAN_NODE_KIND_PROJECTION;
  const proto::PlanNode& scan_node = projected ? plan.children(0) : plan;
  if (scan_node.kind() != proto::PLAN_NODE_KIND_INDEX_SCAN) return nullptr;
  const proto::IndexScanNode& scan = scan_node.index_scan();
  if (scan.has_predicate() || scan.lookup_key_size() == 0) return nullptr;
  const Table* table = ctx.find_table(scan.table());
  if (table == nullptr) return nullptr;
  const TableIndex* index = table->FindIndex(scan.index());
  if (index == nullptr || index->kind() != IndexKind::kHash || !index->unique() ||
      scan.lookup_key_size() != index->key().size()) {
    return nullptr;
  }
  std::vector<int> key_parameters = KeyParameters(scan.lookup_key());
  if (key_parameters.empty()) return nullptr;
  std::vector<int> columns;
  if (!projected) {
    for (int c = 0; c < table->visible_column_count(); ++c) columns.push_back(c);
  } else {
    for (const proto::Expression& e : plan.projection().columns()) {
      if (e.kind() != proto::EXPRESSION_KIND_COLUMN || e.children_size() != 0) return nullptr;
      columns.push_back(e.column_index());
    }
  }
  return std::make_unique<PointLookup>(table, index, std::move(key_parameters), std::move(columns));
}

PointLookup::PointLookup(const Table* table, const TableIndex* index, std::vector<int> key_parameters,
                         std::vector<int> columns)
    : table_(table),
      index_(index),
      key_parameters_(std::move(key_parameters)),
      columns_(std::move(columns)),
      key_(key_parameters_.size()),
      row_(std::max<size_t>(columns_.size(), 1)) {}

Status PointLookup::Run(const Value* params, ResultWriter* writer, Arena* arena) {
  for (size_t i = 0; i < key_parameters_.size(); ++i) {
    key_[i] = params[key_parameters_[i]];
    if (key_[i].is_null()) return Status::OK();  // NULL = x is never true
  }
  const char* tuple = index_->FindUnique(key_.data());
  if (tuple == nullptr) return Status::OK();
  const TupleSchema& schema = table_->schema();
  for (size_t c = 0; c < columns_.size(); ++c) row_[c] = schema.Get(tuple, columns_[c]);
  return writer->AddRow(row_.data(), arena);
}

}  // namespace partita
