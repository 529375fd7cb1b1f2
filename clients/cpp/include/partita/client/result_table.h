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
// Ownership: a handle on the answer that holds the table's bytes and its
// parsed layout (detail::Answer). A copy shares them: it costs one atomic
// increment, and keeps the answer alive after its Response is gone. The
// tables a Response holds are its own and valid while it lives.
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

namespace detail {
class Answer;
struct TableLayout;
}  // namespace detail

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
  static Result<ResultTable> Parse(std::string bytes);

  ResultTable(const ResultTable& other);
  ResultTable(ResultTable&& other) noexcept;
  ResultTable& operator=(const ResultTable& other);
  ResultTable& operator=(ResultTable&& other) noexcept;
  ~ResultTable();

  size_t column_count() const;
  size_t row_count() const;
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
  std::string_view bytes() const;

 private:
  friend class detail::Answer;
  // A handle on `layout`, held by `home`; `counted` says whether it holds a
  // reference on `home` (copies do; the handles an answer keeps for its
  // Response do not, or the answer would keep itself alive).
  ResultTable(detail::Answer* home, const detail::TableLayout* layout, bool counted);
  void Drop();

  // The offset of the value at (row, column) in bytes_; REQUIRES: in range.
  uint32_t ValueAt(size_t row, size_t column, ValueType expected) const;
  uint32_t ValueAtAnyType(size_t row, size_t column) const;
  void CheckColumn(size_t column) const;

  detail::Answer* home_ = nullptr;
  const detail::TableLayout* layout_ = nullptr;
  bool counted_ = false;
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_RESULT_TABLE_H_
