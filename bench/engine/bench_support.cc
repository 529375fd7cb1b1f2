#include "bench_support.h"

#include <string>
#include <vector>

#include "partita/result_table.h"

namespace partita::bench {

std::unique_ptr<Engine> OpenEngine(const proto::Catalog& catalog, benchmark::State& state) {
  Result<std::unique_ptr<Engine>> engine = Engine::Open(catalog, EngineOptions{});
  if (SkipIfError(engine.status(), "Engine::Open", state)) return nullptr;
  return std::move(engine).value();
}

std::optional<StatementId> FindStatement(const Engine& engine, std::string_view name, benchmark::State& state) {
  Result<StatementId> id = engine.FindStatement(name);
  if (SkipIfError(id.status(), name, state)) return std::nullopt;
  return *id;
}

bool SkipIfError(const Status& status, std::string_view what, benchmark::State& state) {
  if (status.ok()) return false;
  const std::string message = std::string(what) + ": " + status.ToString();
  state.SkipWithError(message.c_str());
  return true;
}

Status BulkInsert(Engine* engine, StatementId insert, int columns, int64_t rows, const RowFiller& fill) {
  std::vector<Value> params(static_cast<size_t>(kLoadBatchRows * columns));
  std::vector<StatementCall> calls;
  calls.reserve(kLoadBatchRows);
  ResultSet results;
  for (int64_t first = 0; first < rows; first += kLoadBatchRows) {
    calls.clear();
    for (int64_t row = first; row < rows && row < first + kLoadBatchRows; ++row) {
      const std::span<Value> row_params(&params[static_cast<size_t>((row - first) * columns)],
                                        static_cast<size_t>(columns));
      fill(row, row_params);
      calls.push_back({insert, row_params});
    }
    PARTITA_RETURN_IF_ERROR(engine->ExecuteBatch(calls, BatchOptions{.final_batch = true}, &results));
  }
  return Status::OK();
}

int64_t TableRowCount(const Engine& engine, std::string_view table) {
  for (const TableStats& stats : engine.GetTableStats()) {
    if (stats.name == table) return stats.row_count;
  }
  return -1;
}

}  // namespace partita::bench
