#include "lookup_catalog.h"

#include "catalog_builder.h"
#include "plan.pb.h"
#include "random64.h"

namespace partita::bench {
namespace {

// Second half of a 32-character key: any odd constant keeps it distinct.
constexpr uint64_t kKeySalt = 0xA0761D6478BD642FULL;

void FormatHex64(uint64_t x, char* out) {
  constexpr std::string_view kDigits = "0123456789abcdef";
  for (int i = 15; i >= 0; --i) {
    out[i] = kDigits[x & 0xF];
    x >>= 4;
  }
}

}  // namespace

proto::Catalog BuildLookupCatalog() {
  proto::Catalog catalog;

  proto::Table* by_bigint = AddTable(&catalog, "KEYS_BIGINT", /*partition_column=*/0);
  AddColumn(by_bigint, "ID", proto::VALUE_TYPE_BIGINT);
  AddColumn(by_bigint, "VAL", proto::VALUE_TYPE_BIGINT);
  AddHashPrimaryKey(by_bigint, {0});
  AddPrimaryKeyLookup(&catalog, kGetBigInt, "SELECT val FROM keys_bigint WHERE id = ?;", *by_bigint, {1});
  AddInsert(&catalog, kInsertBigInt, "INSERT INTO keys_bigint VALUES (?, ?);", *by_bigint, /*upsert=*/false);

  proto::Table* by_varchar = AddTable(&catalog, "KEYS_VARCHAR32", /*partition_column=*/0);
  AddColumn(by_varchar, "KEY", proto::VALUE_TYPE_VARCHAR, kKeyLength);
  AddColumn(by_varchar, "VAL", proto::VALUE_TYPE_BIGINT);
  AddHashPrimaryKey(by_varchar, {0});
  AddPrimaryKeyLookup(&catalog, kGetVarchar32, "SELECT val FROM keys_varchar32 WHERE key = ?;", *by_varchar, {1});
  AddInsert(&catalog, kInsertVarchar32, "INSERT INTO keys_varchar32 VALUES (?, ?);", *by_varchar,
            /*upsert=*/false);
  return catalog;
}

int64_t BigIntKey(uint64_t row) { return static_cast<int64_t>(Random64::Mix(row)); }

void FormatKey32(uint64_t row, char* out) {
  // Mix is a bijection, so the first half alone keeps keys distinct.
  FormatHex64(Random64::Mix(row), out);
  FormatHex64(Random64::Mix(row ^ kKeySalt), out + 16);
}

}  // namespace partita::bench
