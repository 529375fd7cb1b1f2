// SnapshotChunk: the header of one chunk of a partition's snapshot stream
// (docs/engine-formats.md, "Snapshot stream"), written and checked.
//
// A chunk holds rows of one table (or materialized view):
//   [u8 format = 2][u16 table name length][name bytes]
//   [u16 column count][u8 ValueType per column]
//   [u64 next row id of the table at the cut]
//   [u64 rows of the table at the cut]                  (format 2 only)
//   [u32 chunk index within the table: 0, 1, ...][u8 last: 1 on the table's last chunk, else 0]
//   [u32 row count][rows, RowCodec format (storage/row_codec.h)]
// Numbers are little-endian. A stream is every table's chunks, table after
// table, each table's in index order. Format 2 streams carry the
// materialized views' rows like any table's (hidden columns included), so a
// load copies them instead of recomputing them. Format 1, written before,
// has no view chunks and no table row count; loading it still works (the
// views are rebuilt from their sources' rows).
//
// Thread model: plain values.
#ifndef PARTITA_ENGINE_SNAPSHOT_CHUNK_H_
#define PARTITA_ENGINE_SNAPSHOT_CHUNK_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "partita/status.h"
#include "partita/value_type.h"

namespace partita {

struct SnapshotChunk {
  // What AppendTo writes unless told otherwise.
  static constexpr uint8_t kFormat = 2;
  // The format before views were streamed (still read).
  static constexpr uint8_t kFormatWithoutViews = 1;

  uint8_t format = kFormat;
  std::string table;
  std::vector<ValueType> column_types;
  uint64_t next_row_id = 0;
  // Rows of the whole table at the cut (format 2; 0 in format 1, unknown).
  uint64_t cut_rows = 0;
  uint32_t index = 0;
  bool last = false;
  uint32_t row_count = 0;

  // Whether the stream this chunk belongs to carries the views' rows.
  bool streams_views() const { return format != kFormatWithoutViews; }

  // Appends the header to `out` in `format`.
  void AppendTo(std::string* out) const;
  // Byte offset of row_count in a header AppendTo wrote (to patch it once
  // the rows are counted).
  size_t RowCountOffset() const;
  // Reads a header from the front of `*in`, advancing it to the rows.
  // Returns BAD_REQUEST naming the field when the bytes are short or the
  // format is neither 1 nor 2.
  static Result<SnapshotChunk> Parse(std::string_view* in);
};

}  // namespace partita

#endif  // PARTITA_ENGINE_SNAPSHOT_CHUNK_H_
