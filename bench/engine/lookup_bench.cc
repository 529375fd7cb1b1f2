// Point lookups by primary key through a compiled statement (hash index
// scan + projection + result serialization + result parsing), over tables
// of range(0) rows, with uniformly random existing keys.
//
// Each table is loaded once per process (the first benchmark that needs it)
// and kept: Google Benchmark calls a benchmark function several times while
// it sizes the iteration count, and reloading a million rows each time would
// dominate the run.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench_support.h"
#include "benchmarks.h"
#include "lookup_catalog.h"
#include "random64.h"

namespace partita::bench {
namespace {

constexpr uint64_t kSeed = 0x5EED'0200;

enum class KeyKind { kBigInt, kVarchar32 };

struct LookupTable {
  std::unique_ptr<Engine> engine;
  StatementId get = 0;
};

// Returns the engine holding `rows` rows of the table for `kind`, loading it
// on first use; nullptr after reporting an error through `state`.
LookupTable* GetLookupTable(KeyKind kind, int64_t rows, benchmark::State& state) {
  static std::map<std::pair<KeyKind, int64_t>, std::unique_ptr<LookupTable>> cache;
  std::unique_ptr<LookupTable>& slot = cache[{kind, rows}];
  if (slot != nullptr) return slot.get();

  auto table = std::make_unique<LookupTable>();
  table->engine = OpenEngine(BuildLookupCatalog(), state);
  if (table->engine == nullptr) return nullptr;
  const bool bigint = kind == KeyKind::kBigInt;
  const std::optional<StatementId> get = FindStatement(*table->engine, bigint ? kGetBigInt : kGetVarchar32, state);
  const std::optional<StatementId> insert =
      FindStatement(*table->engine, bigint ? kInsertBigInt : kInsertVarchar32, state);
  if (!get || !insert) return nullptr;
  table->get = *get;

  std::vector<char> keys(static_cast<size_t>(kLoadBatchRows * kKeyLength));
  const Status loaded = BulkInsert(table->engine.get(), *insert, 2, rows, [&](int64_t row, std::span<Value> params) {
    if (bigint) {
      params[0] = Value::BigInt(BigIntKey(static_cast<uint64_t>(row)));
    } else {
      char* key = &keys[static_cast<size_t>((row % kLoadBatchRows) * kKeyLength)];
      FormatKey32(static_cast<uint64_t>(row), key);
      params[0] = Value::Varchar(std::string_view(key, kKeyLength));
    }
    params[1] = Value::BigInt(row);
  });
  if (SkipIfError(loaded, "loading the lookup table", state)) return nullptr;
  slot = std::move(table);
  return slot.get();
}

void RunLookups(KeyKind kind, benchmark::State& state) {
  const int64_t rows = state.range(0);
  LookupTable* table = GetLookupTable(kind, rows, state);
  if (table == nullptr) return;

  Random64 random(kSeed);
  ResultSet results;
  std::array<char, kKeyLength> key_bytes;
  int64_t mismatches = 0;
  for (auto _ : state) {
    const uint64_t row = random.Uniform(static_cast<uint64_t>(rows));
    std::array<Value, 1> key;
    if (kind == KeyKind::kBigInt) {
      key[0] = Value::BigInt(BigIntKey(row));
    } else {
      FormatKey32(row, key_bytes.data());
      key[0] = Value::Varchar(std::string_view(key_bytes.data(), key_bytes.size()));
    }
    const std::array<StatementCall, 1> call = {{{table->get, key}}};
    if (SkipIfError(table->engine->ExecuteBatch(call, BatchOptions{.final_batch = true}, &results), "lookup",
                    state)) {
      break;
    }
    Result<ResultTableReader> found = ResultTableReader::Parse(results.table(0));
    // Each key's VAL is its row number.
    if (!found.ok() || found->row_count() != 1 || found->Get(0, 0).int_value() != static_cast<int64_t>(row)) {
      ++mismatches;
    }
  }
  if (state.error_occurred()) return;
  state.SetItemsProcessed(state.iterations());
  if (mismatches != 0) {
    const std::string message = std::to_string(mismatches) + " of " + std::to_string(state.iterations()) +
                                " lookups did not return the key's row";
    state.SkipWithError(message.c_str());
  }
}

}  // namespace

void BM_HashLookup_BigInt(benchmark::State& state) { RunLookups(KeyKind::kBigInt, state); }

void BM_HashLookup_Varchar32(benchmark::State& state) { RunLookups(KeyKind::kVarchar32, state); }

}  // namespace partita::bench
