// ResultTable: one table of the engine's binary result format
// (docs/engine-formats.md), as a procedure's answer carries it: `u32
// table_size`, then the column count, the columns (type, name), the row
// count and the rows (size, NULL bitmap, non-NULL values), little-endian.
//
// Parse() checks every size and every row against its columns once and
// records where each value starts; reading a value is then O(1) and never
// reads outside the table's bytes, whatever the bytes were.
//
//   const ResultTable& t = response.results[0];
//   for (size_t r = 0; r < t.row_count(); ++r)
//     std::cout << t.GetString(r, 0) << " " << t.GetInt64(r, 2) << "\n";
//
// Getters, by column type: GetInt64 - TINYINT, SMALLINT, INTEGER, BIGINT,
// BOOLEAN; GetDouble - FLOAT and the integer types; GetDecimal - DECIMAL (exact
// text); GetString - VARCHAR; GetBytes - VARBINARY and VARCHAR;
// GetTimestampMicros - TIMESTAMP; Get - any type, as a Param. A NULL reads as
// 0 or empty (check IsNull). Calling a getter with a row or column out of
// range, or on a column of another type, is a programmer error: it throws
// std::out_of_range or std::invalid_argument (like std::vector::at).
//
// Ownership: shares ownership of the bytes it reads (copies are cheap).
// Thread model: immutable after Parse; safe to read from any thread.
#ifndef PARTITA_CLIENT_RESULT_TABLE_H_
#define PARTITA_CLIENT_RESULT_TABLE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "partita/client/param.h"
#include "partita/client/result.h"

namespace partita::client {

// Column types: the numbers of ValueType in proto/plan.proto.
enum class ValueType : uint8_t {
  kNull = 1,
  kTinyInt = 2,
  kSmallInt = 3,
  kInteger = 4,
  kBigInt = 5,
  kFloat = 6,
  kDecimal = 7,
  kVarchar = 8,
  kVarbinary = 9,
  kTimestamp = 10,
  kBoolean = 11,
};

// The name of a type ("BIGINT").
std::string_view ValueTypeName(ValueType type);

class ResultTable final {
 public:
  // Parses the table that fills `bytes` exactly (its u32 table_size first).
  // Returns the table, or kMalformed naming the byte offset and the problem.
  static Result<ResultTable> Parse(std::shared_ptr<const std::string> bytes);
  static Result<ResultTable> Parse(std::string bytes);

  size_t column_count() const { return types_.size(); }
  size_t row_count() const { return row_count_; }
  ValueType column_type(size_t column) const;
  std::string_view column_name(size_t column) const;
  // The index of the column named `name` (exactly, else ignoring ASCII case), or -1.
  int ColumnIndex(std::string_view name) const;

  bool IsNull(size_t row, size_t column) const;
  int64_t GetInt64(size_t row, size_t column) const;
  double GetDouble(size_t row, size_t column) const;
  // DECIMAL as exact text without trailing zeros: "-12.5", "3", "0.000000000001".
  std::string GetDecimal(size_t row, size_t column) const;
  std::string_view GetString(size_t row, size_t column) const;
  std::string_view GetBytes(size_t row, size_t column) const;
  int64_t GetTimestampMicros(size_t row, size_t column) const;
  // Any column's value as a Param (NULL, int64, double, DECIMAL text, text, bytes, timestamp).
  Param Get(size_t row, size_t column) const;

  // The table's bytes as received: u32 table_size, then the table.
  std::string_view bytes() const { return *bytes_; }

 private:
  ResultTable() = default;

  // The offset of the value at (row, column) in bytes_; REQUIRES: in range.
  uint32_t ValueAt(size_t row, size_t column, ValueType expected) const;
  uint32_t ValueAtAnyType(size_t row, size_t column) const;
  void CheckColumn(size_t column) const;

  std::shared_ptr<const std::string> bytes_;
  std::vector<ValueType> types_;
  std::vector<std::string_view> names_;
  size_t row_count_ = 0;
  std::vector<uint32_t> row_offsets_;    // each row's NULL bitmap
  std::vector<uint32_t> value_offsets_;  // row * column_count + column; 0 for a NULL
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_RESULT_TABLE_H_
