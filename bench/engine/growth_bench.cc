// Inserting into a table whose primary-key hash index grows from empty to
// range(0) rows, one insert per transaction, timing every insert: the
// slowest single insert and the tail (p99.9, p99.99) show whether the index
// (or the table's blocks) ever stops to grow in one step. Run once
// (Iterations(1)); counters in µs. Each insert is timed twice: by the wall
// clock (what a caller waits) and by the thread's CPU clock (the engine's
// own work, without the time the thread spent preempted on a shared
// machine): `cpu_*` counters.
//
// What the slowest insert was doing: the thread's resource usage is read
// around every insert (outside the timed span), giving the page faults it
// took (`cpu_max_faults`; 256 would be a whole 1 MiB faulted in at once),
// its row number (`cpu_max_row`) and whether the kernel preempted it
// (`cpu_max_preempted`: involuntary context switches; on a loaded VM a
// preempted insert's CPU clock can run on for milliseconds of work that was
// not its own). `cpu_max_unpreempted_*` describe the slowest insert that
// was not preempted; `max_faults` is the most faults any one insert took.
//
// BM_ClockNoise is the control: the same timing of the same number of
// steps, each a fixed computation of about a microsecond that allocates and
// touches no memory. Its slowest step is what this machine's clocks and
// scheduler alone give a microsecond of work at that moment: an insert tail
// at that level is noise, not the engine.
#include <algorithm>
#include <array>
#include <sys/resource.h>
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
#include "random64.h"

namespace partita::bench {
namespace {

int64_t ThreadCpuNanos() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

rusage ThreadUsage() {
  rusage u;
  getrusage(RUSAGE_THREAD, &u);
  return u;
}

// One insert: its CPU time, row number, page faults and involuntary
// context switches.
struct InsertUsage {
  int64_t cpu_nanos = 0;
  int64_t row = 0;
  int64_t faults = 0;
  int64_t preempted = 0;

  void Report(benchmark::State& state, const std::string& prefix) const {
    state.counters[prefix + "us"] = static_cast<double>(cpu_nanos) / 1e3;
    state.counters[prefix + "row"] = static_cast<double>(row);
    state.counters[prefix + "faults"] = static_cast<double>(faults);
  }
};

// The slowest insert by CPU time, and the slowest that was not preempted.
struct Slowest {
  InsertUsage any;
  InsertUsage unpreempted;
  int64_t max_faults = 0;

  void Add(int64_t row, int64_t cpu, const rusage& before, const rusage& after) {
    const InsertUsage usage{cpu, row, after.ru_minflt - before.ru_minflt + after.ru_majflt - before.ru_majflt,
                            after.ru_nivcsw - before.ru_nivcsw};
    max_faults = std::max(max_faults, usage.faults);
    if (cpu > any.cpu_nanos) any = usage;
    if (usage.preempted == 0 && cpu > unpreempted.cpu_nanos) unpreempted = usage;
  }

  void Report(benchmark::State& state) const {
    any.Report(state, "cpu_max_");
    state.counters["cpu_max_preempted"] = static_cast<double>(any.preempted);
    unpreempted.Report(state, "cpu_max_unpreempted_");
    state.counters["max_faults"] = static_cast<double>(max_faults);
  }
};

// Runs op(0) .. op(n - 1), timing each by the wall and CPU clocks, and
// reports the tail counters. Returns false (the error reported) if an op
// failed.
template <typename Op>
bool TimeEach(benchmark::State& state, int64_t n, Op op) {
  std::vector<uint32_t> nanos(static_cast<size_t>(n));
  std::vector<uint32_t> cpu_nanos(static_cast<size_t>(n));
  Slowest slowest;
  for (int64_t i = 0; i < n; ++i) {
    const rusage usage_before = ThreadUsage();
    const int64_t cpu_start = ThreadCpuNanos();
    const auto start = std::chrono::steady_clock::now();
    const Status s = op(i);
    const auto took = std::chrono::steady_clock::now() - start;
    const int64_t cpu_took = ThreadCpuNanos() - cpu_start;
    if (SkipIfError(s, "inserting", state)) return false;
    slowest.Add(i, cpu_took, usage_before, ThreadUsage());
    nanos[static_cast<size_t>(i)] =
        static_cast<uint32_t>(std::min<int64_t>(std::chrono::nanoseconds(took).count(), UINT32_MAX));
    cpu_nanos[static_cast<size_t>(i)] = static_cast<uint32_t>(std::min<int64_t>(cpu_took, UINT32_MAX));
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
  }
  state.counters["max_us"] = *std::max_element(nanos.begin(), nanos.end()) / 1e3;
  slowest.Report(state);
  state.SetItemsProcessed(n);
  return true;
}

// Rounds of a 64-bit mix in one control step: about a microsecond, like
// one insert.
constexpr int kControlRounds = 400;

}  // namespace

void BM_InsertStalls(benchmark::State& state) {
  const int64_t rows = state.range(0);
  for (auto _ : state) {
    std::unique_ptr<Engine> engine = OpenEngine(BuildLookupCatalog(), state);
    if (engine == nullptr) return;
    const std::optional<StatementId> insert = FindStatement(*engine, kInsertBigInt, state);
    if (!insert) return;
    std::array<Value, 2> params;
    ResultSet results;
    TimeEach(state, rows, [&](int64_t row) {
      params[0] = Value::BigInt(BigIntKey(static_cast<uint64_t>(row)));
      params[1] = Value::BigInt(row);
      const StatementCall call{*insert, params};
      return engine->ExecuteBatch({&call, 1}, BatchOptions{.final_batch = true}, &results);
    });
  }
}

void BM_ClockNoise(benchmark::State& state) {
  uint64_t x = 0;
  for (auto _ : state) {
    TimeEach(state, state.range(0), [&](int64_t i) {
      for (int r = 0; r < kControlRounds; ++r) x = Random64::Mix(x + static_cast<uint64_t>(i));
      benchmark::DoNotOptimize(x);
      return Status::OK();
    });
  }
}

}  // namespace partita::bench
