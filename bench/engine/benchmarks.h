// The engine benchmarks, one function each. They are defined in one file per
// component (voter_bench.cc, partition_bench.cc, lookup_bench.cc,
// kv_bench.cc, growth_bench.cc) and registered, in their default order, by
// partita_bench_engine.cc.
#ifndef PARTITA_BENCH_ENGINE_BENCHMARKS_H_
#define PARTITA_BENCH_ENGINE_BENCHMARKS_H_

#include <benchmark/benchmark.h>

namespace partita::bench {

// lookup_bench.cc; range(0) = rows loaded.
void BM_HashLookup_BigInt(benchmark::State& state);
void BM_HashLookup_Varchar32(benchmark::State& state);

// voter_bench.cc
void BM_Insert_HashIndexTwoViews(benchmark::State& state);
void BM_VoteTxn_Partita(benchmark::State& state);
// The same, each Vote's first batch carrying the next Vote's phone number as
// its prefetch key (BatchOptions::prefetch_key), as the host does.
void BM_VoteTxn_Partita_PrefetchNext(benchmark::State& state);
void BM_VoteTxn_SQLite(benchmark::State& state);
void BM_VoteTxn_SQLite_NoJournal(benchmark::State& state);

// partition_bench.cc; range(0) = partitions.
void BM_VoteTxn_Partitions(benchmark::State& state);

// growth_bench.cc; range(0) = rows inserted, one per transaction.
void BM_InsertStalls(benchmark::State& state);
// growth_bench.cc: the control, range(0) timed steps of fixed work.
void BM_ClockNoise(benchmark::State& state);

// kv_bench.cc
void BM_KV_Get(benchmark::State& state);
void BM_KV_Put(benchmark::State& state);

}  // namespace partita::bench

#endif  // PARTITA_BENCH_ENGINE_BENCHMARKS_H_
