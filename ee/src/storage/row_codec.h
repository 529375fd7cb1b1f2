// RowCodec: a row's values as bytes that outlive the tuple they came from —
// the row format of the snapshot stream (docs/engine-formats.md, "Snapshot
// stream").
//
// One row:
//   [u64 row id]
//   per column, in schema order: [u8 present: 0 = NULL, 1 = a value follows]
//     then, when present, by the column's type:
//       TINYINT, SMALLINT, INTEGER, BIGINT, TIMESTAMP, BOOLEAN: i64
//       FLOAT: IEEE-754 f64            DECIMAL: i128 (unscaled, 10^-12)
//       VARCHAR, VARBINARY: [u32 byte length][bytes]
// Every number is little-endian. The column types are not repeated per row:
// the stream says them once per chunk.
//
// Thread model: stateless; the functions are safe on any thread for
// tuples the caller may read.
#ifndef PARTITA_STORAGE_ROW_CODEC_H_
#define PARTITA_STORAGE_ROW_CODEC_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "partita/status.h"
#include "tuple/tuple_schema.h"

namespace partita {

class RowCodec {
 public:
  RowCodec() = delete;

  // Appends `tuple`'s row id and values to `out`.
  static void Encode(const TupleSchema& schema, const char* tuple, std::string* out);

  // Reads one row from the front of `*in` into `*row_id` and `values[0 ..
  // column_count)`, and advances `*in` past it. String values point into
  // `*in`'s bytes. Returns BAD_REQUEST naming `what` and the column when
  // the bytes end early or hold an invalid presence byte.
  static Status Decode(const TupleSchema& schema, std::string_view* in, RowId* row_id, Value* values,
                       std::string_view what);

  // A fixed-width number appended to `out` / taken from the front of `*in`,
  // little-endian (the host's order: tuple_schema.h). Take returns false,
  // leaving `*in` as it was, when fewer than sizeof(T) bytes remain.
  template <typename T>
  static void Append(std::string* out, T x) {
    out->append(reinterpret_cast<const char*>(&x), sizeof x);
  }
  template <typename T>
  static bool Take(std::string_view* in, T* x) {
    if (in->size() < sizeof *x) return false;
    std::memcpy(x, in->data(), sizeof *x);
    in->remove_prefix(sizeof *x);
    return true;
  }
};

}  // namespace partita

#endif  // PARTITA_STORAGE_ROW_CODEC_H_
