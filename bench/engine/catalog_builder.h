// Helpers that build proto::Catalog pieces by hand — tables, primary keys,
// COUNT(*) views, point-lookup and insert statements — for the benchmark
// schemas until the SQL compiler exists. Each helper writes the plan shape the
// engine expects (proto/plan.proto conventions): every Expression carries its
// value_type, every Statement lists its parameter_types.
//
// Thread model: free functions over caller-owned protos.
#ifndef PARTITA_BENCH_ENGINE_CATALOG_BUILDER_H_
#define PARTITA_BENCH_ENGINE_CATALOG_BUILDER_H_

#include <string_view>
#include <vector>

#include "catalog.pb.h"
#include "plan.pb.h"

namespace partita::bench {

// Catalog format version written by the builders (catalog.proto v1).
inline constexpr int kCatalogFormatVersion = 1;
// Table::partition_column of a replicated table.
inline constexpr int kReplicated = -1;

// Adds an empty table called `name` to `catalog` and returns it.
proto::Table* AddTable(proto::Catalog* catalog, std::string_view name, int partition_column);

// Appends a NOT NULL column. `max_length` is required (> 0) for VARCHAR and
// VARBINARY and ignored otherwise.
void AddColumn(proto::Table* table, std::string_view name, proto::ValueType type, int max_length = 0);

// Declares the unique hash PRIMARY KEY "<TABLE>_PK" (constraint
// "PK_<TABLE>") over `columns` (positions).
void AddHashPrimaryKey(proto::Table* table, const std::vector<int>& columns);

// Adds the materialized view
//   SELECT g..., COUNT(*) AS <count_column> FROM source GROUP BY g...
// as a table called `name` with the group-by columns (source positions in
// `group_by`), then the BIGINT NOT NULL count, and its unique hash index
// "<NAME>_PK" over the group-by columns. The view is partitioned like its
// source when it groups by the source's partitioning column; otherwise its
// rows are per-partition partial counts and it names no partitioning column.
proto::Table* AddCountStarView(proto::Catalog* catalog, std::string_view name, const proto::Table& source,
                               const std::vector<int>& group_by, std::string_view count_column);

// Adds the read-only statement
//   SELECT <columns> FROM table WHERE <primary key columns> = ?...
// as an index scan of the table's primary key, one parameter per key column,
// under a projection of `columns` (positions; empty = every column, no
// projection). REQUIRES: `table` has a primary key.
void AddPrimaryKeyLookup(proto::Catalog* catalog, std::string_view name, std::string_view sql,
                         const proto::Table& table, const std::vector<int>& columns);

// Adds `INSERT INTO table VALUES (?, ...)` (or UPSERT when `upsert`), one
// parameter per column in table order.
void AddInsert(proto::Catalog* catalog, std::string_view name, std::string_view sql, const proto::Table& table,
               bool upsert);

// Returns the table called `name`. REQUIRES: it exists.
const proto::Table& FindTable(const proto::Catalog& catalog, std::string_view name);

}  // namespace partita::bench

#endif  // PARTITA_BENCH_ENGINE_CATALOG_BUILDER_H_
