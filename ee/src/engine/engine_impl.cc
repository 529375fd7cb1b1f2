#include "engine/engine_impl.h"

#include "catalog.pb.h"
#include "common/assert.h"
#include "errors.pb.h"
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

Status EngineImpl::BindParameters(const CompiledStatement& stmt, std::span<const Value> args, const Value** bound) {
  const size_t expected = stmt.parameter_types.size();
  if (args.size() != expected) {
    return Status(proto::ERROR_CODE_BAD_PARAMETER, "expects " + std::to_string(expected) + " parameters, got " +
                                                       std::to_string(args.size()));
  }
  // The usual case: every value already has its declared type (NULLs too),
  // so the caller's values are used in place, checked once and not copied.
  size_t i = 0;
  while (i < expected && args[i].type() == stmt.parameter_types[i]) ++i;
  if (i == expected) {
    *bound = args.data();
    return Status::OK();
  }
  params_.assign(args.begin(), args.end());
  for (; i < expected; ++i) {
    const ValueType type = stmt.parameter_types[i];
    if (args[i].type() == type) continue;
    if (args[i].is_null()) {
      params_[i] = Value::Null(type);
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
  *bound = params_.data();
  return Status::OK();
}

Status EngineImpl::RunStatement(const StatementCall& call, int64_t txn_timestamp) {
  if (call.statement == kAdHocStatement) return RunAdHoc(call, txn_timestamp);
  auto& statements = catalog_->statements();
  if (call.statement < 0 || call.statement >= static_cast<int>(statements.size())) {
    return Status(proto::ERROR_CODE_NOT_FOUND, "no statement with id " + std::to_string(call.statement));
  }
  return RunCompiled(statements[call.statement], call.parameters, txn_timestamp);
}

Status EngineImpl::RunAdHoc(const StatementCall& call, int64_t txn_timestamp) {
  if (call.ad_hoc == nullptr) {
    return Status(proto::ERROR_CODE_BAD_REQUEST, "an ad-hoc call (statement id -1) without its statement");
  }
  Result<CompiledStatement> compiled = catalog_->Compile(*call.ad_hoc);
  if (!compiled.ok()) {
    // A bad ad-hoc statement is a bad plan, whatever part of it is at fault.
    return Status(proto::ERROR_CODE_BAD_PLAN, compiled.status().message());
  }
  CompiledStatement& stmt = compiled.value();
  if (stmt.name.empty()) stmt.name = "ad-hoc statement";
  return RunCompiled(stmt, call.parameters, txn_timestamp);
}

Status EngineImpl::RunCompiled(CompiledStatement& stmt, std::span<const Value> parameters, int64_t txn_timestamp) {
  const Value* params = nullptr;
  Status s = BindParameters(stmt, parameters, &params);
  if (s.ok()) {
    ++executions_;
    guard_.BeginStatement();
    // A statement counts as a row toward the next look at the clock and the
    // cancel flag: reading the clock before every statement cost about 5% of
    // a server's CPU under Voter, whose statements touch a row or two.
    s = guard_.Tick();
    writer_.BeginTable(stmt.result_header);
    if (s.ok()) {
      if (stmt.point_lookup != nullptr) {
        s = stmt.point_lookup->Run(params, &writer_, &statement_arena_);
      } else if (stmt.parameter_insert != nullptr) {
        s = stmt.parameter_insert->Run(params, &undo_, &writer_, &statement_arena_);
      } else {
        s = RunPlan(stmt, params, txn_timestamp);
      }
    }
    writer_.EndTable();
  }
  statement_arena_.Reset();
  view_arena_.Reset();
  if (!s.ok()) return Status(s.code(), stmt.name + ": " + s.message());
  return Status::OK();
}

Status EngineImpl::RunPlan(CompiledStatement& stmt, const Value* params, int64_t txn_timestamp) {
  ExecContext ctx;
  ctx.params = params;
  ctx.param_count = static_cast<int32_t>(stmt.parameter_types.size());
  ctx.arena = &statement_arena_;
  ctx.undo = &undo_;
  ctx.txn_timestamp = txn_timestamp;
  ctx.received = &received_;
  ctx.execution = executions_;
  ctx.guard = &guard_;
  Status s = stmt.root->Open(&ctx);
  while (s.ok()) {
    const Value* row;
    s = stmt.root->Next(&row);
    if (!s.ok() || row == nullptr) break;
    s = writer_.AddRow(row, &statement_arena_);
  }
  return s;
}

Status EngineImpl::ReceiveDependencies(std::span<const DependencyTable> dependencies) {
  received_.clear();
  for (size_t i = 0; i < dependencies.size(); ++i) {
    Result<ResultTableReader> table = ResultTableReader::Parse(dependencies[i].table);
    if (!table.ok()) {
      return Status(proto::ERROR_CODE_BAD_REQUEST, "dependency " + std::to_string(i) + " (id " +
                                                       std::to_string(dependencies[i].dependency_id) +
                                                       "): " + table.status().message());
    }
    received_.push_back(ReceivedTable{dependencies[i].dependency_id, std::move(table).value()});
  }
  return Status::OK();
}

Status EngineImpl::ExecuteBatch(std::span<const StatementCall> calls, const BatchOptions& options,
                                ResultSet* results) {
  AssertOwner();
  in_transaction_ = true;
  cancel_.store(false, std::memory_order_relaxed);
  guard_.BeginBatch(options_.query_memory_bytes, options.time_limit_ms);
  writer_.Begin(results, options_.max_result_bytes);
  if (!options.prefetch_key.is_null()) PrefetchPartitionKey(options.prefetch_key);
  Status s = ReceiveDependencies(options.dependencies);
  for (size_t i = 0; s.ok() && i < calls.size(); ++i) s = RunStatement(calls[i], options.txn_timestamp);
  if (!received_.empty()) received_.clear();  // they point into the caller's bytes
  if (!s.ok()) {
    Rollback();
    results->Clear();
    return s;
  }
  writer_.Finish();
  results->set_write_hash(undo_.write_hash());
  if (options.final_batch) Commit();
  return Status::OK();
}

void EngineImpl::PrefetchPartitionKey(const Value& key) const {
  // Every integer type hashes its number, so an INTEGER value finds a BIGINT
  // key's slot; a string finds only string keys' slots.
  const bool string_value = IsVariableLengthType(key.type());
  for (const LoadedCatalog::PartitionKeyIndex& ix : catalog_->partition_key_indexes()) {
    if (ix.string_key == string_value) ix.index->Prefetch(&key);
  }
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

Status EngineImpl::UpdateCatalog(std::string_view catalog_bytes) {
  proto::Catalog catalog;
  if (!catalog.ParseFromArray(catalog_bytes.data(), static_cast<int>(catalog_bytes.size()))) {
    return Status(proto::ERROR_CODE_BAD_CATALOG,
                  "catalog bytes are not a valid catalog message (" + std::to_string(catalog_bytes.size()) + " bytes)");
  }
  return UpdateCatalog(catalog);
}

Status EngineImpl::UpdateCatalog(const proto::Catalog& catalog) {
  AssertOwner();
  if (in_transaction_) {
    return Status(proto::ERROR_CODE_BAD_REQUEST, "UpdateCatalog: a transaction is open; commit or roll it back first");
  }
  if (snapshot_ != nullptr) {
    return Status(proto::ERROR_CODE_BAD_REQUEST, "UpdateCatalog: a snapshot is being taken; finish or abort it first");
  }
  Result<std::unique_ptr<LoadedCatalog>> next = LoadedCatalog::Load(catalog, &view_arena_);
  if (!next.ok()) return next.status();
  Status s = CopyData(next.value().get());
  view_arena_.Reset();
  if (!s.ok()) return Status(s.code(), "UpdateCatalog: " + s.message());  // `next` dies; nothing changed
  catalog_ = std::move(next).value();
  loader_.reset();  // a load in progress addressed the old tables
  return Status::OK();
}

namespace {

// Whether `a` and `b` have the same SQL-visible columns and are both base
// tables (or both views).
bool SameColumns(const Table& a, const Table& b) {
  const bool a_view = a.visible_column_count() != a.schema().column_count();
  const bool b_view = b.visible_column_count() != b.schema().column_count();
  if (a_view != b_view || a.visible_column_count() != b.visible_column_count()) return false;
  for (int c = 0; c < a.visible_column_count(); ++c) {
    const ColumnLayout& x = a.schema().column(c);
    const ColumnLayout& y = b.schema().column(c);
    if (x.name != y.name || x.type != y.type || x.max_length != y.max_length || x.nullable != y.nullable) return false;
  }
  return true;
}

// Rows copied between releases of the copy's undo log (bounds its memory).
constexpr int64_t kCopyChunkRows = 4096;

}  // namespace

Status EngineImpl::CopyData(LoadedCatalog* next) {
  UndoLog copy_undo;  // committed as it goes: on failure `next` is discarded whole
  std::vector<Value> row;
  for (const auto& target : next->tables()) {
    const Table* source = catalog_->FindTable(target->name());
    if (source == nullptr) continue;  // a new table
    const bool is_view = target->visible_column_count() != target->schema().column_count();
    const bool was_view = source->visible_column_count() != source->schema().column_count();
    if (is_view && was_view) continue;  // recomputed from its source's rows
    if (!SameColumns(*source, *target)) {
      if (source->row_count() == 0) continue;  // recreated
      return Status(proto::ERROR_CODE_BAD_CATALOG,
                    "table " + target->name() + ": its columns change but it holds " +
                        std::to_string(source->row_count()) + " rows (only an empty table can be redefined)");
    }
    row.resize(source->schema().column_count());
    int64_t copied = 0;
    Table::Iterator it = source->Scan();
    for (const char* tuple = it.Next(); tuple != nullptr; tuple = it.Next()) {
      source->schema().GetAll(tuple, row.data());
      Status s = target->InsertWithRowId(row.data(), source->schema().row_id(tuple), &copy_undo);
      if (!s.ok()) {
        copy_undo.Commit();
        return Status(s.code(), "table " + target->name() + ": " + s.message());
      }
      if (++copied % kCopyChunkRows == 0) {
        copy_undo.Commit();
        view_arena_.Reset();
      }
    }
  }
  copy_undo.Commit();
  return Status::OK();
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
