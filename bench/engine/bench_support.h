// Helpers shared by the engine benchmarks: opening engines and resolving
// statements with errors reported through benchmark::State, bulk loading
// through a statement, and reading table sizes.
//
// Thread model: each helper touches only the Engine it is given, on the
// caller's thread (which must be the Engine's).
#ifndef PARTITA_BENCH_ENGINE_BENCH_SUPPORT_H_
#define PARTITA_BENCH_ENGINE_BENCH_SUPPORT_H_

#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "catalog.pb.h"
#include "partita/engine.h"
#include "partita/status.h"

namespace partita::bench {

// Rows per transaction when bulk loading.
inline constexpr int64_t kLoadBatchRows = 1000;

// Opens a one-partition engine on `catalog`. On error reports it through
// `state` and returns nullptr.
std::unique_ptr<Engine> OpenEngine(const proto::Catalog& catalog, benchmark::State& state);

// Returns the id of statement `name`, or reports the error through `state`.
std::optional<StatementId> FindStatement(const Engine& engine, std::string_view name, benchmark::State& state);

// Reports `status` through `state` with `what` as context. Returns true iff
// `status` was an error.
bool SkipIfError(const Status& status, std::string_view what, benchmark::State& state);

// Fills the parameters of row `row`. The bytes of string Values it writes
// must stay valid until the batch holding `row` has run: one buffer slot per
// row % kLoadBatchRows is enough.
using RowFiller = std::function<void(int64_t row, std::span<Value> params)>;

// Runs statement `insert` (which takes `columns` parameters) for rows
// 0..rows-1, kLoadBatchRows per transaction.
Status BulkInsert(Engine* engine, StatementId insert, int columns, int64_t rows, const RowFiller& fill);

// Live rows of `table`, from Engine::GetTableStats(); -1 if no such table.
int64_t TableRowCount(const Engine& engine, std::string_view table);

}  // namespace partita::bench

#endif  // PARTITA_BENCH_ENGINE_BENCH_SUPPORT_H_
