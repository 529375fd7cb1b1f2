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

// Reads one table. Values returned by Get() point into the table's bytes.
class ResultTableReader {
 public:
  // Parses the header and indexes the rows; BAD_REQUEST if malformed.
  static Result<ResultTableReader> Parse(std::span<const uint8_t> table);

  int column_count() const { return static_cast<int>(types_.size()); }
  int64_t row_count() const { return static_cast<int64_t>(rows_.size()); }
  ValueType column_type(int c) const { return types_[c]; }
  const std::string& column_name(int c) const { return names_[c]; }
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
  std::vector<ValueType> types_;
  std::vector<std::string> names_;
  std::vector<const uint8_t*> rows_;  // start of each row's null bitmap
};

}  // namespace partita

#endif  // PARTITA_RESULT_TABLE_H_
