// The KV reference workload (DESIGN.md "The reference workloads") as a
// hand-built catalog:
//
//   STORE(KEY VARCHAR(32) PK, VALUE VARBINARY(1048576))   partitioned on KEY
//
// Statements: KV.get (SELECT value WHERE key = ?), KV.put (UPSERT), KV.load
// (INSERT, for loading). Keys are FormatKey32(row) (lookup_catalog.h).
//
// Thread model: pure functions.
#ifndef PARTITA_BENCH_ENGINE_KV_CATALOG_H_
#define PARTITA_BENCH_ENGINE_KV_CATALOG_H_

#include <string_view>

#include "catalog.pb.h"

namespace partita::bench {

inline constexpr std::string_view kKvGet = "KV.get";
inline constexpr std::string_view kKvPut = "KV.put";
inline constexpr std::string_view kKvLoad = "KV.load";

// The workload's value size and the column's limit.
inline constexpr int kKvValueBytes = 1024;
inline constexpr int kKvMaxValueBytes = 1 << 20;

proto::Catalog BuildKvCatalog();

}  // namespace partita::bench

#endif  // PARTITA_BENCH_ENGINE_KV_CATALOG_H_
