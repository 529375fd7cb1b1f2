// partita_bench_engine: microbenchmarks of the C++ engine, embedded (no
// host, no network), with Google Benchmark. Every number is items (statements
// or transactions) per second; each benchmark checks its results after the
// timed loop and reports an error instead of a number if they are wrong.
//
// Benchmarks, in their default order:
//   BM_HashLookup_BigInt/1000000     SELECT val by BIGINT primary key, 1M rows, random keys
//   BM_HashLookup_Varchar32/1000000  SELECT val by VARCHAR(32) primary key, 1M rows, random keys
//   BM_Insert_HashIndexTwoViews      Vote's write alone: INSERT INTO votes, both views maintained
//   BM_VoteTxn_Partita               the whole Vote transaction (2 batches) on one engine
//   BM_VoteTxn_Partita/iterations:20000  the same, a fixed 20,000 Votes: the same work on every
//                                    run, for instruction and cache-miss counts under callgrind
//   BM_VoteTxn_Partita_PrefetchNext  the same, each Vote prefetching the next one's phone slot
//   BM_VoteTxn_SQLite                the same transaction in in-memory SQLite, the baseline
//   BM_VoteTxn_SQLite_NoJournal      the same without SQLite's rollback journal (its upper bound)
//   BM_VoteTxn_Partitions/1          Vote on 1 partition thread via PartitionRunner (real time)
//   BM_VoteTxn_Partitions/2          Vote on 2 partition threads, total throughput (real time)
//   BM_KV_Get                        KV get: 1 KB VARBINARY by VARCHAR(32) key, 1M keys
//   BM_KV_Put                        KV put: UPSERT of a 1 KB value for an existing key, 1M keys
//   BM_InsertStalls/20000000         20M inserts, one per transaction: slowest insert, p99.99, what it did
//   BM_ClockNoise/20000000           its control: 20M timed steps of fixed ~1 µs work
//
// Why this order: from the smallest unit of engine work to the largest, so a
// regression shows first in the simplest benchmark that has it (a slower
// lookup explains a slower Vote, not the reverse); Partita and SQLite run
// back to back so they see the same machine state; the partition runs come
// after the one-engine figure they scale; KV comes last because loading its
// 1 GB store takes longest and its memory stays for the rest of the process.
//
// Run: ./build/bench/engine/partita_bench_engine --benchmark_filter=VoteTxn
// Build with -DCMAKE_BUILD_TYPE=Release: the engine library takes the build
// type's flags (this binary's own files are always -O3); the build type is
// printed in the context header.
#include <benchmark/benchmark.h>
#include <sqlite3.h>

#include "benchmarks.h"

#ifndef PARTITA_BUILD_TYPE
#define PARTITA_BUILD_TYPE "unknown"
#endif

namespace partita::bench {
namespace {

constexpr int64_t kLookupRows = 1'000'000;
constexpr int kMaxPartitions = 2;
// Inserts of the growth benchmark, and steps of its control.
constexpr int64_t kStallRows = 20'000'000;
// Votes of the fixed-count run (a few seconds under callgrind).
constexpr int64_t kCountedVotes = 20'000;

void RegisterBenchmarks() {
  using benchmark::RegisterBenchmark;
  RegisterBenchmark("BM_HashLookup_BigInt", BM_HashLookup_BigInt)->Arg(kLookupRows);
  RegisterBenchmark("BM_HashLookup_Varchar32", BM_HashLookup_Varchar32)->Arg(kLookupRows);
  RegisterBenchmark("BM_Insert_HashIndexTwoViews", BM_Insert_HashIndexTwoViews);
  RegisterBenchmark("BM_VoteTxn_Partita", BM_VoteTxn_Partita);
  RegisterBenchmark("BM_VoteTxn_Partita", BM_VoteTxn_Partita)->Iterations(kCountedVotes);
  RegisterBenchmark("BM_VoteTxn_Partita_PrefetchNext", BM_VoteTxn_Partita_PrefetchNext);
  RegisterBenchmark("BM_VoteTxn_SQLite", BM_VoteTxn_SQLite);
  RegisterBenchmark("BM_VoteTxn_SQLite_NoJournal", BM_VoteTxn_SQLite_NoJournal);
  RegisterBenchmark("BM_VoteTxn_Partitions", BM_VoteTxn_Partitions)->DenseRange(1, kMaxPartitions)->UseRealTime();
  RegisterBenchmark("BM_KV_Get", BM_KV_Get);
  RegisterBenchmark("BM_KV_Put", BM_KV_Put);
  RegisterBenchmark("BM_InsertStalls", BM_InsertStalls)->Arg(kStallRows)->Iterations(1)->Unit(benchmark::kSecond);
  RegisterBenchmark("BM_ClockNoise", BM_ClockNoise)->Arg(kStallRows)->Iterations(1)->Unit(benchmark::kSecond);
}

}  // namespace
}  // namespace partita::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("partita_build_type", PARTITA_BUILD_TYPE);
  benchmark::AddCustomContext("sqlite_version", sqlite3_libversion());
  partita::bench::RegisterBenchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
