// LoadedCatalog: one partition's schema objects built from a proto::Catalog
// — tables (with their indexes), materialized views and compiled statements.
//
// Ownership: owns everything. Member order is teardown order: statements
// (executors point at tables and indexes) die first, then views (listeners
// of tables), then tables. Thread model: partition-confined.
#ifndef PARTITA_CATALOG_LOADED_CATALOG_H_
#define PARTITA_CATALOG_LOADED_CATALOG_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "catalog.pb.h"
#include "catalog/compiled_statement.h"
#include "index/hash_index.h"
#include "storage/table.h"
#include "view/materialized_view.h"

namespace partita {

class LoadedCatalog {
 public:
  // Builds every object of `catalog`. `view_arena` holds strings made by
  // view predicates. Returns BAD_CATALOG (or BAD_PLAN for statements) naming
  // the object at fault; nothing is returned half-built.
  static Result<std::unique_ptr<LoadedCatalog>> Load(const proto::Catalog& catalog, Arena* view_arena);

  ~LoadedCatalog();

  Table* FindTable(std::string_view name) const;
  // Compiles `statement` against this catalog's tables (catalog statements
  // at load, ad-hoc statements per call). BAD_CATALOG for bad parameter or
  // output types, BAD_PLAN for a bad plan, each naming the statement.
  Result<CompiledStatement> Compile(const proto::Statement& statement) const;
  const std::vector<std::unique_ptr<Table>>& tables() const { return tables_; }
  std::vector<CompiledStatement>& statements() { return statements_; }
  const absl::flat_hash_map<std::string, int>& statement_ids() const { return statement_ids_; }

  // A hash index keyed on a partitioning column alone: a partitioned table's
  // partition column, or the group-by column of a view that is its source's
  // partition column. What BatchOptions::prefetch_key fetches into.
  struct PartitionKeyIndex {
    const HashIndex* index;
    bool string_key;  // VARCHAR/VARBINARY: only a string value hashes to its keys
  };
  const std::vector<PartitionKeyIndex>& partition_key_indexes() const { return partition_key_indexes_; }

 private:
  friend class CatalogLoader;
  std::vector<std::unique_ptr<Table>> tables_;
  absl::flat_hash_map<std::string, Table*> tables_by_name_;
  std::vector<std::unique_ptr<MaterializedView>> views_;
  std::vector<CompiledStatement> statements_;
  absl::flat_hash_map<std::string, int> statement_ids_;
  std::vector<PartitionKeyIndex> partition_key_indexes_;
};

}  // namespace partita

#endif  // PARTITA_CATALOG_LOADED_CATALOG_H_
