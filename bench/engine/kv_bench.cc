// The KV reference workload's two operations on one partition, over 1M keys
// of VARCHAR(32) with 1 KB VARBINARY values and uniformly random keys:
// BM_KV_Get reads a value by key, BM_KV_Put upserts a new value for an
// existing key. The store is loaded once per process and shared by both
// (Put leaves every value 1 KB, so Get measures the same thing after it).
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench_support.h"
#include "benchmarks.h"
#include "kv_catalog.h"
#include "lookup_catalog.h"
#include "random64.h"

namespace partita::bench {
namespace {

constexpr uint64_t kSeed = 0x5EED'0300;
constexpr int64_t kKvRows = 1'000'000;
// Values are 1 KB windows of this much random data.
constexpr size_t kValuePoolBytes = 64 << 10;

struct KvStore {
  std::unique_ptr<Engine> engine;
  StatementId get = 0;
  StatementId put = 0;
  std::string value_pool;

  // The value at `offset` of the pool.
  std::string_view ValueAt(uint64_t offset) const {
    return std::string_view(value_pool).substr(offset % (kValuePoolBytes - kKvValueBytes), kKvValueBytes);
  }
};

// Returns the loaded store, loading it on first use; nullptr after reporting
// an error through `state`.
KvStore* GetKvStore(benchmark::State& state) {
  static std::unique_ptr<KvStore> cached;
  if (cached != nullptr) return cached.get();

  auto store = std::make_unique<KvStore>();
  Random64 random(kSeed);
  store->value_pool.resize(kValuePoolBytes);
  for (char& c : store->value_pool) c = static_cast<char>(random.Next());
  store->engine = OpenEngine(BuildKvCatalog(), state);
  if (store->engine == nullptr) return nullptr;
  const std::optional<StatementId> get = FindStatement(*store->engine, kKvGet, state);
  const std::optional<StatementId> put = FindStatement(*store->engine, kKvPut, state);
  const std::optional<StatementId> load = FindStatement(*store->engine, kKvLoad, state);
  if (!get || !put || !load) return nullptr;
  store->get = *get;
  store->put = *put;

  std::vector<char> keys(static_cast<size_t>(kLoadBatchRows * kKeyLength));
  const Status loaded =
      BulkInsert(store->engine.get(), *load, 2, kKvRows, [&](int64_t row, std::span<Value> params) {
        char* key = &keys[static_cast<size_t>((row % kLoadBatchRows) * kKeyLength)];
        FormatKey32(static_cast<uint64_t>(row), key);
        params[0] = Value::Varchar(std::string_view(key, kKeyLength));
        params[1] = Value::Varbinary(store->ValueAt(Random64::Mix(static_cast<uint64_t>(row))));
      });
  if (SkipIfError(loaded, "loading STORE", state)) return nullptr;
  cached = std::move(store);
  return cached.get();
}

}  // namespace

void BM_KV_Get(benchmark::State& state) {
  KvStore* store = GetKvStore(state);
  if (store == nullptr) return;
  Random64 random(kSeed + 1);
  ResultSet results;
  std::array<char, kKeyLength> key_bytes;
  int64_t mismatches = 0;
  for (auto _ : state) {
    FormatKey32(random.Uniform(kKvRows), key_bytes.data());
    const std::array<Value, 1> key = {Value::Varchar(std::string_view(key_bytes.data(), key_bytes.size()))};
    const std::array<StatementCall, 1> call = {{{store->get, key}}};
    if (SkipIfError(store->engine->ExecuteBatch(call, BatchOptions{.final_batch = true}, &results), "KV.get",
                    state)) {
      break;
    }
    Result<ResultTableReader> found = ResultTableReader::Parse(results.table(0));
    if (!found.ok() || found->row_count() != 1 || found->Get(0, 0).string_value().size() != kKvValueBytes) {
      ++mismatches;
    }
  }
  if (state.error_occurred()) return;
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * kKvValueBytes);
  if (mismatches != 0) {
    const std::string message = std::to_string(mismatches) + " gets did not return one 1 KB value";
    state.SkipWithError(message.c_str());
  }
}

void BM_KV_Put(benchmark::State& state) {
  KvStore* store = GetKvStore(state);
  if (store == nullptr) return;
  Random64 random(kSeed + 2);
  ResultSet results;
  std::array<char, kKeyLength> key_bytes;
  int64_t mismatches = 0;
  for (auto _ : state) {
    FormatKey32(random.Uniform(kKvRows), key_bytes.data());
    const std::array<Value, 2> row = {Value::Varchar(std::string_view(key_bytes.data(), key_bytes.size())),
                                      Value::Varbinary(store->ValueAt(random.Next()))};
    const std::array<StatementCall, 1> call = {{{store->put, row}}};
    if (SkipIfError(store->engine->ExecuteBatch(call, BatchOptions{.final_batch = true}, &results), "KV.put",
                    state)) {
      break;
    }
    Result<ResultTableReader> modified = ResultTableReader::Parse(results.table(0));
    if (!modified.ok() || modified->row_count() != 1 || modified->ScalarInt() != 1) ++mismatches;
  }
  if (state.error_occurred()) return;
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * kKvValueBytes);
  const int64_t rows = TableRowCount(*store->engine, "STORE");
  if (mismatches != 0 || rows != kKvRows) {
    const std::string message = std::to_string(mismatches) + " puts did not modify one row; STORE has " +
                                std::to_string(rows) + " rows, want " + std::to_string(kKvRows);
    state.SkipWithError(message.c_str());
  }
}

}  // namespace partita::bench
