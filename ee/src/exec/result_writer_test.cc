#include "exec/result_writer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "errors.pb.h"

namespace partita {
namespace {

// (A BIGINT, S VARCHAR, N INTEGER, D DECIMAL)
ResultHeader Header() {
  return ResultHeader::Make({{"A", ValueType::kBigInt}, {"S", ValueType::kVarchar}, {"N", ValueType::kInteger},
                             {"D", ValueType::kDecimal}});
}

std::vector<uint8_t> Write(const std::vector<std::vector<Value>>& rows, size_t limit = 1 << 20) {
  const ResultHeader header = Header();
  ResultSet out;
  ResultWriter writer;
  Arena arena;
  writer.Begin(&out, limit);
  writer.BeginTable(header);
  for (const std::vector<Value>& row : rows) EXPECT_TRUE(writer.AddRow(row.data(), &arena).ok());
  writer.EndTable();
  writer.Finish();
  return std::vector<uint8_t>(out.bytes().begin(), out.bytes().end());
}

TEST(ResultWriterTest, RowsOfExactTypesReadBackWithNullsAndStrings) {
  const std::vector<uint8_t> bytes =
      Write({{Value::BigInt(-5), Value::Varchar("abc"), Value::Integer(7), Value::Decimal(12)},
             {Value::Null(ValueType::kBigInt), Value::Varchar(""), Value::Null(ValueType::kInteger),
              Value::Decimal(-1)}});
  Result<ResultTableReader> table = ResultTableReader::Parse(std::span(bytes).subspan(4));
  ASSERT_TRUE(table.ok());
  ASSERT_EQ(table.value().row_count(), 2);
  EXPECT_EQ(table.value().Get(0, 0).int_value(), -5);
  EXPECT_EQ(table.value().Get(0, 1).string_value(), "abc");
  EXPECT_EQ(table.value().Get(0, 2).int_value(), 7);
  EXPECT_TRUE(table.value().Get(0, 3).decimal_value() == 12);
  EXPECT_TRUE(table.value().Get(1, 0).is_null());
  EXPECT_EQ(table.value().Get(1, 1).string_value(), "");
  EXPECT_TRUE(table.value().Get(1, 2).is_null());
}

// A value of another type is converted first (the slower path, value by
// value); the bytes are the same as for the value of the column's type.
TEST(ResultWriterTest, ConvertedRowsAreByteForByteTheRowsOfExactTypes) {
  const std::vector<uint8_t> exact =
      Write({{Value::BigInt(3), Value::Varchar("xy"), Value::Integer(9), Value::Decimal(0)},
             {Value::BigInt(4), Value::Null(ValueType::kVarchar), Value::Integer(-2), Value::Decimal(5)}});
  const std::vector<uint8_t> converted =
      Write({{Value::Integer(3), Value::Varchar("xy"), Value::SmallInt(9), Value::Decimal(0)},
             {Value::BigInt(4), Value::Null(ValueType::kVarchar), Value::BigInt(-2), Value::Decimal(5)}});
  EXPECT_EQ(exact, converted);
}

TEST(ResultWriterTest, RefusesResultsPastTheLimit) {
  const ResultHeader header = Header();
  ResultSet out;
  ResultWriter writer;
  Arena arena;
  writer.Begin(&out, 64);
  writer.BeginTable(header);
  const std::string big(100, 'x');
  const std::vector<Value> row = {Value::BigInt(1), Value::Varchar(big), Value::Integer(1), Value::Decimal(1)};
  const Status s = writer.AddRow(row.data(), &arena);
  EXPECT_EQ(s.code(), proto::ERROR_CODE_RESULT_TOO_LARGE);
}

}  // namespace
}  // namespace partita
