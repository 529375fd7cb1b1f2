// The point-lookup microbenchmark schema: two two-column tables keyed by a
// hash primary key, one per key type measured.
//
//   KEYS_BIGINT(ID BIGINT PK, VAL BIGINT)             partitioned on ID
//   KEYS_VARCHAR32(KEY VARCHAR(32) PK, VAL BIGINT)    partitioned on KEY
//
// Keys are derived from row numbers (BigIntKey, FormatKey32) so a benchmark
// can pick a random existing key without storing the key set.
//
// Thread model: pure functions.
#ifndef PARTITA_BENCH_ENGINE_LOOKUP_CATALOG_H_
#define PARTITA_BENCH_ENGINE_LOOKUP_CATALOG_H_

#include <cstdint>
#include <string_view>

#include "catalog.pb.h"

namespace partita::bench {

inline constexpr std::string_view kGetBigInt = "Lookup.getBigInt";        // SELECT val ... WHERE id = ?
inline constexpr std::string_view kInsertBigInt = "Lookup.insertBigInt";  // INSERT (id, val)
inline constexpr std::string_view kGetVarchar32 = "Lookup.getVarchar32";
inline constexpr std::string_view kInsertVarchar32 = "Lookup.insertVarchar32";

// Length of the VARCHAR keys (here and in the KV schema).
inline constexpr int kKeyLength = 32;

proto::Catalog BuildLookupCatalog();

// The BIGINT key of row `row`: well spread, distinct for distinct rows.
int64_t BigIntKey(uint64_t row);

// Writes the 32-character key of row `row` (lower-case hex, distinct for
// distinct rows) to out[0..31]. REQUIRES: `out` holds kKeyLength chars.
void FormatKey32(uint64_t row, char* out);

}  // namespace partita::bench

#endif  // PARTITA_BENCH_ENGINE_LOOKUP_CATALOG_H_
