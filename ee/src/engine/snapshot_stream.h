// SnapshotStream: a partition's copy-on-write snapshot as a sequence of
// chunks (snapshot_chunk.h), produced between transactions.
//
// Construction fixes the cut of every table and materialized view at once
// (each table's TableSnapshot, table_snapshot.h): the views' rows at the cut
// are exactly the views of their sources' rows at the cut. Next then
// serializes one chunk of about `max_bytes` per call, tables in
// catalog order, so a caller that runs one call between two transactions
// delays no transaction by more than one chunk's work.
//
// Ownership: holds the tables' addresses (owned by the LoadedCatalog, which
// must outlive the stream); ends every table snapshot it began when it ends
// or dies. Thread model: partition-confined.
#ifndef PARTITA_ENGINE_SNAPSHOT_STREAM_H_
#define PARTITA_ENGINE_SNAPSHOT_STREAM_H_

#include <memory>
#include <string>
#include <vector>

#include "storage/table.h"

namespace partita {

class SnapshotStream {
 public:
  // REQUIRES: no open transaction, no table snapshot active.
  explicit SnapshotStream(const std::vector<std::unique_ptr<Table>>& tables);
  ~SnapshotStream();
  SnapshotStream(const SnapshotStream&) = delete;
  SnapshotStream& operator=(const SnapshotStream&) = delete;

  // Replaces `*chunk` with the next chunk. Returns true iff one was
  // written; false once the stream is over (every table's last chunk given).
  bool Next(size_t max_bytes, std::string* chunk);

  // Rows emitted so far, and the bytes of cut images held now.
  int64_t rows_emitted() const { return rows_emitted_; }
  size_t preserved_bytes() const;

 private:
  std::vector<Table*> tables_;  // tables and views, catalog order
  size_t current_ = 0;          // index into tables_ of the table being emitted
  uint32_t chunk_index_ = 0;    // of the next chunk of tables_[current_]
  int64_t rows_emitted_ = 0;
};

}  // namespace partita

#endif  // PARTITA_ENGINE_SNAPSHOT_STREAM_H_
