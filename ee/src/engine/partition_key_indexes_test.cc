// LoadedCatalog::partition_key_indexes: which hash indexes the engine's
// prefetch key (BatchOptions::prefetch_key) fetches into. In the engine
// layer: loading a catalog links the executors, which need its result sets.
#include "catalog/loaded_catalog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/arena.h"
#include "testing/catalog_builder.h"

namespace partita {
namespace {

std::vector<std::string> PartitionKeyIndexNames(const proto::Catalog& catalog) {
  Arena arena;
  Result<std::unique_ptr<LoadedCatalog>> loaded = LoadedCatalog::Load(catalog, &arena);
  EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
  std::vector<std::string> names;
  if (!loaded.ok()) return names;
  for (const LoadedCatalog::PartitionKeyIndex& ix : loaded.value()->partition_key_indexes()) {
    names.push_back(ix.index->name() + (ix.string_key ? " (string)" : ""));
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(LoadedCatalogTest, PartitionKeyIndexesAreHashIndexesOnAPartitionColumnAloneOrAViewsGroupOverIt) {
  testing::CatalogBuilder c;
  // VOTES partitioned on PHONE (column 1).
  c.Table("VOTES", 1)
      .Column("ID", ValueType::kBigInt, 0, false)
      .Column("PHONE", ValueType::kBigInt, 0, false)
      .Column("STATE", ValueType::kVarchar, 2, false)
      .Index("BY_PHONE", {1}, proto::INDEX_KIND_HASH, false, false)
      .Index("BY_ID", {0}, proto::INDEX_KIND_HASH, true, true)                   // not the partition column
      .Index("BY_PHONE_ORDERED", {1}, proto::INDEX_KIND_ORDERED, false, false)   // not a hash index
      .Index("BY_PHONE_STATE", {1, 2}, proto::INDEX_KIND_HASH, false, false);    // not the column alone
  c.View("PER_PHONE", "VOTES", {1}, {{proto::AGGREGATE_KIND_COUNT_STAR, -1, "N"}});
  c.View("PER_STATE", "VOTES", {2}, {{proto::AGGREGATE_KIND_COUNT_STAR, -1, "N"}});
  c.View("PER_STATE_PHONE", "VOTES", {2, 1}, {{proto::AGGREGATE_KIND_COUNT_STAR, -1, "N"}});
  // KV partitioned on a string key; AREA replicated.
  c.Table("KV", 0).Column("K", ValueType::kVarchar, 32, false).Index("PK_KV", {0}, proto::INDEX_KIND_HASH, true, true);
  c.Table("AREA").Column("CODE", ValueType::kSmallInt, 0, false).Index("PK_AREA", {0}, proto::INDEX_KIND_HASH, true, true);
  c.View("AREA_COUNT", "AREA", {0}, {{proto::AGGREGATE_KIND_COUNT_STAR, -1, "N"}});

  EXPECT_EQ(PartitionKeyIndexNames(c.catalog()),
            (std::vector<std::string>{"BY_PHONE", "PER_PHONE_PK", "PK_KV (string)"}));
}

}  // namespace
}  // namespace partita
