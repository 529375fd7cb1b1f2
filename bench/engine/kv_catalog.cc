#include "kv_catalog.h"

#include "catalog_builder.h"
#include "lookup_catalog.h"
#include "plan.pb.h"

namespace partita::bench {

proto::Catalog BuildKvCatalog() {
  proto::Catalog catalog;
  proto::Table* store = AddTable(&catalog, "STORE", /*partition_column=*/0);
  AddColumn(store, "KEY", proto::VALUE_TYPE_VARCHAR, kKeyLength);
  AddColumn(store, "VALUE", proto::VALUE_TYPE_VARBINARY, kKvMaxValueBytes);
  AddHashPrimaryKey(store, {0});
  AddPrimaryKeyLookup(&catalog, kKvGet, "SELECT value FROM store WHERE key = ?;", *store, {1});
  AddInsert(&catalog, kKvPut, "UPSERT INTO store VALUES (?, ?);", *store, /*upsert=*/true);
  AddInsert(&catalog, kKvLoad, "INSERT INTO store VALUES (?, ?);", *store, /*upsert=*/false);
  return catalog;
}

}  // namespace partita::bench
