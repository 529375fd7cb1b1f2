// SnapshotLoader: loads a snapshot stream's chunks (snapshot_chunk.h) into a
// partition's empty tables and views.
//
// A format 2 stream carries the views' rows: every row, a view's too, is
// loaded as it is (Table::LoadRow: indexes built, no undo log, no write
// hash, no view maintenance), each unique hash index sized up front for the
// table's row count at the cut. A format 1 stream (written before views
// were streamed) has only base tables: its rows go through Table's ordinary
// inserts, so the views fill in as their source rows arrive.
//
// Each chunk loads whole or not at all (on any error its rows are taken
// back: Table::UnloadRows, or the undo log for format 1). Chunks of one table must come in index order, the first into an
// empty table, none after the last; tables may come in any order. A table
// whose stream ended takes a new one (chunk 0) once it is empty again: a
// snapshot restored into a running database after an earlier load. Rows keep
// their row ids, and after a table's last chunk its next row id is the cut's,
// so the restored partition assigns the ids the original would have.
//
// Ownership: holds the state of one load. Thread model: partition-confined.
#ifndef PARTITA_ENGINE_SNAPSHOT_LOADER_H_
#define PARTITA_ENGINE_SNAPSHOT_LOADER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "catalog/loaded_catalog.h"
#include "engine/snapshot_chunk.h"

namespace partita {

class SnapshotLoader {
 public:
  SnapshotLoader() = default;
  SnapshotLoader(const SnapshotLoader&) = delete;
  SnapshotLoader& operator=(const SnapshotLoader&) = delete;

  // Loads `chunk` into its table of `catalog`. Returns BAD_REQUEST naming the
  // table and what is wrong (unknown table, a view in a format 1 stream,
  // other columns, a chunk out of order, a table not empty, malformed rows,
  // a row count other than the header's), or the insert's error (e.g.
  // CONSTRAINT_VIOLATION); the table is then as before the call.
  // `view_arena` is the engine's arena for view predicates, reset here.
  Status Load(std::string_view chunk, LoadedCatalog* catalog, Arena* view_arena);

 private:
  static constexpr uint32_t kTableDone = UINT32_MAX;
  // Larger row counts in a header are not trusted to size indexes up front
  // (they grow as rows come): a damaged header must not map terabytes.
  static constexpr uint64_t kMaxReservedRows = uint64_t{1} << 31;

  Status CheckHeader(const SnapshotChunk& header, const Table* table);
  // Format 2: rows as they are, listed in loaded_ until the chunk is done.
  Status LoadRows(const SnapshotChunk& header, std::string_view rows, Table* table);
  // Format 1: rows through the ordinary insert path (views recomputed).
  Status InsertRows(const SnapshotChunk& header, std::string_view rows, Table* table);
  // Decodes and validates the next row of `*rows` into validated_.
  Status NextRow(const SnapshotChunk& header, const std::string& what, std::string_view* rows, const Table& table,
                 RowId* id);

  // Per table: the index of the chunk expected next (kTableDone after the last).
  absl::flat_hash_map<std::string, uint32_t> next_index_;
  UndoLog undo_;
  Arena arena_;
  std::vector<Value> decoded_;
  std::vector<Value> validated_;
  std::vector<const char*> loaded_;  // tuples the chunk being loaded placed so far
};

}  // namespace partita

#endif  // PARTITA_ENGINE_SNAPSHOT_LOADER_H_
