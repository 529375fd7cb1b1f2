// Inserting into a table whose primary-key hash index grows from empty to
// range(0) rows, one insert per transaction, timing every insert: the
// slowest single insert and the tail (p99.9, p99.99) show whether the index
// ever stops to rehash. Run once (Iterations(1)); counters in µs. Each
// insert is timed twice: by the wall clock (what a caller waits) and by the
// thread's CPU clock (the engine's own work, without the time the thread
// spent preempted on a shared machine): `cpu_*` counters.
#include <algorithm>
#include <array>
#include <time.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench_support.h"
#include "benchmarks.h"
#include "lookup_catalog.h"

namespace partita::bench {
namespace {

int64_t ThreadCpuNanos() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

}  // namespace

void BM_InsertStalls(benchmark::State& state) {
  const int64_t rows = state.range(0);
  for (auto _ : state) {
    std::unique_ptr<Engine> engine = OpenEngine(BuildLookupCatalog(), state);
    if (engine == nullptr) return;
    const std::optional<StatementId> insert = FindStatement(*engine, kInsertBigInt, state);
    if (!insert) return;
    std::vector<uint32_t> nanos(static_cast<size_t>(rows));
    std::vector<uint32_t> cpu_nanos(static_cast<size_t>(rows));
    std::array<Value, 2> params;
    ResultSet results;
    for (int64_t row = 0; row < rows; ++row) {
      params[0] = Value::BigInt(BigIntKey(static_cast<uint64_t>(row)));
      params[1] = Value::BigInt(row);
      const StatementCall call{*insert, params};
      const int64_t cpu_start = ThreadCpuNanos();
      const auto start = std::chrono::steady_clock::now();
      const Status s = engine->ExecuteBatch({&call, 1}, BatchOptions{.final_batch = true}, &results);
      const auto took = std::chrono::steady_clock::now() - start;
      const int64_t cpu_took = ThreadCpuNanos() - cpu_start;
      if (SkipIfError(s, "inserting", state)) return;
      nanos[static_cast<size_t>(row)] =
          static_cast<uint32_t>(std::min<int64_t>(std::chrono::nanoseconds(took).count(), UINT32_MAX));
      cpu_nanos[static_cast<size_t>(row)] = static_cast<uint32_t>(std::min<int64_t>(cpu_took, UINT32_MAX));
    }
    auto at = [](std::vector<uint32_t>& v, double q) {
      auto nth = v.begin() + static_cast<int64_t>(q * static_cast<double>(v.size() - 1));
      std::nth_element(v.begin(), nth, v.end());
      return *nth / 1e3;
    };
    for (auto& [prefix, v] : {std::pair<const char*, std::vector<uint32_t>*>{"", &nanos}, {"cpu_", &cpu_nanos}}) {
      const std::string p(prefix);
      state.counters[p + "p50_us"] = at(*v, 0.5);
      state.counters[p + "p999_us"] = at(*v, 0.999);
      state.counters[p + "p9999_us"] = at(*v, 0.9999);
      state.counters[p + "max_us"] = *std::max_element(v->begin(), v->end()) / 1e3;
    }
    state.SetItemsProcessed(rows);
  }
}

}  // namespace partita::bench
