#include "exec/parameter_insert.h"

#include "common/assert.h"

namespace partita {

std::unique_ptr<ParameterInsert> ParameterInsert::Match(const proto::PlanNode& plan, const PlanBuildContext& ctx) {
  if (plan.kind() != proto::PLAN_NODE_KIND_INSERT || plan.children_size() != 1) return nullptr;
  const proto::PlanNode& values = plan.children(0);
  if (values.kind() != proto::PLAN_NODE_KIND_VALUES || values.values().rows_size() != 1) return nullptr;
  Table* table = ctx.find_table(plan.insert().table());
  if (table == nullptr) return nullptr;
  const proto::ValuesNode::Row& row = values.values().rows(0);
  if (row.columns_size() != table->schema().column_count()) return nullptr;
  std::vector<Source> sources;
  for (const proto::Expression& e : row.columns()) {
    Source source;
    if (e.kind() == proto::EXPRESSION_KIND_PARAMETER && e.children_size() == 0) {
      source.parameter = e.parameter_index();
    } else if (e.kind() == proto::EXPRESSION_KIND_CONSTANT) {
      Result<std::unique_ptr<Expression>> constant = BuildExpression(e, ExpressionScope{0, ctx.param_count, 0, nullptr});
      if (!constant.ok()) return nullptr;
      source.constant = std::move(constant).value();
    } else {
      return nullptr;
    }
    sources.push_back(std::move(source));
  }
  return std::make_unique<ParameterInsert>(table, plan.insert().upsert(), std::move(sources));
}

ParameterInsert::ParameterInsert(Table* table, bool upsert, std::vector<Source> sources)
    : table_(table),
      upsert_(upsert),
      sources_(std::move(sources)),
      constants_(sources_.size()),
      row_(sources_.size()),
      validated_(sources_.size()) {
  for (size_t c = 0; c < sources_.size(); ++c) {
    if (sources_[c].constant == nullptr) continue;
    // A constant reads nothing of its context; its value lives in the node.
    const Status s = sources_[c].constant->Eval(EvalContext{}, &constants_[c]);
    PARTITA_ASSERT(s.ok(), "evaluating a plan constant cannot fail");
  }
}

Status ParameterInsert::Write(UndoLog* undo, Arena* arena) {
  PARTITA_RETURN_IF_ERROR(table_->ValidateRow(row_.data(), validated_.data(), arena));
  return upsert_ ? table_->Upsert(validated_.data(), undo) : table_->Insert(validated_.data(), undo);
}

Status ParameterInsert::Run(const Value* params, UndoLog* undo, ResultWriter* writer, Arena* arena) {
  for (size_t c = 0; c < sources_.size(); ++c) {
    row_[c] = sources_[c].parameter >= 0 ? params[sources_[c].parameter] : constants_[c];
  }
  PARTITA_RETURN_IF_ERROR(Write(undo, arena));
  return writer->AddRow(&count_, arena);
}

}  // namespace partita
