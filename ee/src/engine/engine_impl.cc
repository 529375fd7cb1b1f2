#include "engine/engine_impl.h"

#include "catalog.pb.h"
#include "common/assert.h"
#include "types/value_cast.h"

namespace partita {

Result<std::unique_ptr<Engine>> Engine::Open(std::string_view catalog_bytes, const EngineOptions& options) {
  proto::Catalog catalog;
  if (!catalog.ParseFromArray(catalog_bytes.data(), static_cast<int>(catalog_bytes.size()))) {
    return Status(proto::ERROR_CODE_BAD_CATALOG,
                  "catalog bytes are not a valid catalog message (" + std::to_string(catalog_bytes.size()) + " bytes)");
  }
  return Open(catalog, options);
}

Result<std::unique_ptr<Engine>> Engine::Open(const proto::Catalog& catalog, const EngineOptions& options) {
  auto engine = std::make_unique<EngineImpl>(options);
  PARTITA_RETURN_IF_ERROR(engine->Load(catalog));
  return std::unique_ptr<Engine>(std::move(engine));
}

Status EngineImpl::Load(const proto::Catalog& catalog) {
  Result<std::unique_ptr<LoadedCatalog>> loaded = LoadedCatalog::Load(catalog, &view_arena_);
  if (!loaded.ok()) return loaded.status();
  catalog_ = std::move(loaded).value();
  return Status::OK();
}

void EngineImpl::AssertOwner() const {
#ifndef NDEBUG
  PARTITA_ASSERT(std::this_thread::get_id() == owner_, "an Engine is used only by the thread that opened it");
#endif
}

Result<StatementId> EngineImpl::FindStatement(std::string_view name) const {
  auto it = catalog_->statement_ids().find(std::string(name));
  if (it == catalog_->statement_ids().end()) {
    return Status(proto::ERROR_CODE_NOT_FOUND, "no statement named '" + std::string(name) + "'");
  }
  return it->second;
}

Status EngineImpl::BindParameters(const CompiledStatement& stmt, std::span<const Value> args) {
  const size_t expected = stmt.parameter_types.size();
  if (args.size() != expected) {
    return Status(proto::ERROR_CODE_BAD_PARAMETER, "expects " + std::to_string(expected) + " parameters, got " +
                                                       std::to_string(args.size()));
  }
  params_.resize(expected);
  for (size_t i = 0; i < expected; ++i) {
    const ValueType type = stmt.parameter_types[i];
    if (args[i].type() == type || args[i].is_null()) {
      params_[i] = args[i].is_null() ? Value::Null(type) : args[i];
      continue;
    }
    Result<Value> v = ConvertValue(args[i], type, 0, ConversionMode::kExact, &statement_arena_, {});
    if (!v.ok()) {
      // Convert again only to name the parameter: no strings on the hot path.
      v = ConvertValue(args[i], type, 0, ConversionMode::kExact, &statement_arena_, "parameter " + std::to_string(i + 1));
      return Status(proto::ERROR_CODE_BAD_PARAMETER, v.status().message());
    }
    params_[i] = v.value();
  }
  return Status::OK();
}

Status EngineImpl::RunStatement(const StatementCall& call, int64_t txn_timestamp) {
  auto& statements = catalog_->statements();
  if (call.statement < 0 || call.statement >= static_cast<int>(statements.size())) {
    return Status(proto::ERROR_CODE_NOT_FOUND, "no statement with id " + std::to_string(call.statement));
  }
  CompiledStatement& stmt = statements[call.statement];
  Status s = BindParameters(stmt, call.parameters);
  if (s.ok()) {
    ExecContext ctx;
    ctx.params = params_.data();
    ctx.param_count = static_cast<int32_t>(params_.size());
    ctx.arena = &statement_arena_;
    ctx.undo = &undo_;
    ctx.txn_timestamp = txn_timestamp;
    s = stmt.root->Open(&ctx);
    writer_.BeginTable(stmt.result_header);
    while (s.ok()) {
      const Value* row;
      s = stmt.root->Next(&row);
      if (!s.ok() || row == nullptr) break;
      s = writer_.AddRow(row, &statement_arena_);
    }
    writer_.EndTable();
  }
  statement_arena_.Reset();
  view_arena_.Reset();
  if (!s.ok()) return Status(s.code(), stmt.name + ": " + s.message());
  return Status::OK();
}

Status EngineImpl::ExecuteBatch(std::span<const StatementCall> calls, const BatchOptions& options,
                                ResultSet* results) {
  AssertOwner();
  in_transaction_ = true;
  writer_.Begin(results, options_.max_result_bytes);
  for (const StatementCall& call : calls) {
    Status s = RunStatement(call, options.txn_timestamp);
    if (!s.ok()) {
      Rollback();
      results->Clear();
      return s;
    }
  }
  writer_.Finish();
  if (options.final_batch) Commit();
  return Status::OK();
}

Status EngineImpl::ExecuteSerializedBatch(std::span<const uint8_t> request, ResultSet* results) {
  AssertOwner();
  Status s = request_.Decode(request);
  if (!s.ok()) {
    // A malformed request cannot be trusted to be part of the transaction.
    Rollback();
    results->Clear();
    return s;
  }
  return ExecuteBatch(request_.calls(), request_.options(), results);
}

void EngineImpl::Commit() {
  AssertOwner();
  undo_.Commit();
  in_transaction_ = false;
}

void EngineImpl::Rollback() {
  AssertOwner();
  undo_.Rollback();
  in_transaction_ = false;
}

std::vector<TableStats> EngineImpl::GetTableStats() const {
  std::vector<TableStats> stats;
  for (const auto& t : catalog_->tables()) {
    stats.push_back(TableStats{t->name(), t->row_count(), t->bytes_used(), t->bytes_allocated(), t->index_bytes()});
  }
  return stats;
}

}  // namespace partita
