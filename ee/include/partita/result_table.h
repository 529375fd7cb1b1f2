// Result tables in the engine's compact binary format (docs/engine-formats.md)
// — the bytes the host forwards to clients unchanged — and a reader for them.
//
// Layout, little-endian:
//   ResultSet   := u32 table_count, table_count × Table
//   Table       := u32 table_size (bytes after this field), u16 column_count,
//                  column_count × (u8 type, u16 name_size, name bytes),
//                  u32 row_count, row_count × Row
//   Row         := u32 row_size (bytes after this field),
//                  null bitmap of ceil(column_count / 8) bytes (bit i of byte
//                  i/8 set = column i NULL), then each non-NULL value:
//                  TINYINT/BOOLEAN 1, SMALLINT 2, INTEGER 4,
//                  BIGINT/FLOAT/TIMESTAMP 8, DECIMAL 16 (int128 unscaled),
//                  VARCHAR/VARBINARY u32 size + bytes.
// Type bytes are proto::ValueType numbers.
#ifndef PARTITA_RESULT_TABLE_H_
#define PARTITA_RESULT_TABLE_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "partita/status.h"
#include "partita/value.h"

namespace partita {

// The serialized results of one batch, and the transaction's write hash
// after it. Owns its bytes; reused across batches so steady workloads do not
// allocate.
class ResultSet {
 public:
  // The write hash of the batch's transaction so far (Engine::ExecuteBatch):
  // every row it wrote, in order; 0 if it wrote nothing. Not part of bytes().
  uint64_t write_hash() const { return write_hash_; }

  // The whole serialized result set (starting with table_count).
  std::span<const uint8_t> bytes() const { return {bytes_.data(), bytes_.size()}; }
  int table_count() const { return static_cast<int>(table_offsets_.size()); }
  // Bytes of table `i` (starting with its table_size field).
  std::span<const uint8_t> table(int i) const;

  // Writer side (the engine). Clears to an empty result set.
  void Clear();
  std::vector<uint8_t>& buffer() { return bytes_; }
  void AddTableOffset(size_t offset) { table_offsets_.push_back(offset); }
  void SetTableCount();
  void set_write_hash(uint64_t hash) { write_hash_ = hash; }

 private:
  std::vector<uint8_t> bytes_;
  std::vector<size_t> table_offsets_;
  uint64_t write_hash_ = 0;
};

// Reads one table. Values returned by Get() and names returned by
// column_name() point into the table's bytes, which must outlive the reader.
// Parsing a table of up to kInlineColumns columns and kInlineRows rows (a
// point lookup's answer, a DML count) allocates nothing.
class ResultTableReader {
 public:
  static constexpr int kInlineColumns = 8;
  static constexpr int kInlineRows = 2;

  // Parses the header and indexes the rows; BAD_REQUEST if malformed.
  static Result<ResultTableReader> Parse(std::span<const uint8_t> table);

  int column_count() const { return column_count_; }
  int64_t row_count() const { return row_count_; }
  ValueType column_type(int c) const { return types()[c]; }
  // Walks the column descriptors: meant for error messages and tools, not
  // for a loop over rows.
  std::string_view column_name(int c) const;
  // REQUIRES: row < row_count(), column < column_count().
  Value Get(int64_t row, int column) const;
  // Reads every column of `row` into out[0 .. column_count()) in one pass.
  // REQUIRES: row < row_count().
  void GetRow(int64_t row, Value* out) const;
  // Convenience for tests: the single BIGINT of a one-row, one-column table
  // (the modified-row count of DML).
  int64_t ScalarInt() const { return Get(0, 0).int_value(); }
  // Rows as text, one line per row, values separated by '|'.
  std::string ToString() const;

 private:
  // The types and rows live in the inline arrays when they fit, else all of
  // them in the vectors (computed per call, so a moved reader stays right).
  const ValueType* types() const { return more_types_.empty() ? inline_types_ : more_types_.data(); }
  const uint8_t* row(int64_t i) const { return more_rows_.empty() ? inline_rows_[i] : more_rows_[i]; }
  void AddType(ValueType t);
  void AddRow(const uint8_t* row);

  std::span<const uint8_t> column_bytes_;  // the column descriptors
  int column_count_ = 0;
  int64_t row_count_ = 0;
  ValueType inline_types_[kInlineColumns] = {};
  const uint8_t* inline_rows_[kInlineRows] = {};  // start of each row's null bitmap
  std::vector<ValueType> more_types_;
  std::vector<const uint8_t*> more_rows_;
};

}  // namespace partita

#endif  // PARTITA_RESULT_TABLE_H_
