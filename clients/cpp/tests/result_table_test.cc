#include "partita/client/result_table.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "table_bytes.h"

namespace partita::client {
namespace {

using testing::TableBytes;

ResultTable MustParse(std::string bytes) {
  Result<ResultTable> t = ResultTable::Parse(std::move(bytes));
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return std::move(t).value();
}

std::string ParseError(std::string bytes) {
  Result<ResultTable> t = ResultTable::Parse(std::move(bytes));
  EXPECT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), Status::Code::kMalformed);
  return t.ok() ? "" : t.status().message();
}

TEST(ResultTableTest, ReadsTheDocumentedExample) {
  const std::string bytes("\x17\0\0\0\x01\0\x05\x01\0N\x01\0\0\0\x09\0\0\0\0\x02\0\0\0\0\0\0\0", 27);
  const ResultTable t = MustParse(bytes);
  ASSERT_EQ(t.column_count(), 1u);
  ASSERT_EQ(t.row_count(), 1u);
  EXPECT_EQ(t.column_name(0), "N");
  EXPECT_EQ(t.column_type(0), ValueType::kBigInt);
  EXPECT_EQ(t.GetInt64(0, 0), 2);
}

TEST(ResultTableTest, ReadsEveryColumnType) {
  const __int128 units = static_cast<__int128>(-12500000000000LL);  // -12.5 at scale 12
  const std::string bytes = TableBytes()
      .Column(2, "T").Column(3, "S").Column(4, "I").Column(5, "B").Column(6, "F").Column(7, "D")
      .Column(8, "V").Column(9, "BIN").Column(10, "TS").Column(11, "BOOL")
      .Row({false, false, false, false, false, false, false, false, false, false})
      .Value<int8_t>(-7).Value<int16_t>(-300).Value<int32_t>(70000).Value<int64_t>(-5'000'000'000LL)
      .Value<double>(2.25).Value<__int128>(units).Text("héllo").Text(std::string("\0\1", 2))
      .Value<int64_t>(1'700'000'000'000'000LL).Value<int8_t>(1)
      .Build();
  const ResultTable t = MustParse(bytes);
  EXPECT_EQ(t.GetInt64(0, 0), -7);
  EXPECT_EQ(t.GetInt64(0, 1), -300);
  EXPECT_EQ(t.GetInt64(0, 2), 70000);
  EXPECT_EQ(t.GetInt64(0, 3), -5'000'000'000LL);
  EXPECT_DOUBLE_EQ(t.GetDouble(0, 4), 2.25);
  EXPECT_DOUBLE_EQ(t.GetDouble(0, 2), 70000.0);
  EXPECT_EQ(t.GetDecimal(0, 5), "-12.5");
  EXPECT_EQ(t.GetString(0, 6), "héllo");
  EXPECT_EQ(t.GetBytes(0, 7), std::string("\0\1", 2));
  EXPECT_EQ(t.GetTimestampMicros(0, 8), 1'700'000'000'000'000LL);
  EXPECT_EQ(t.GetInt64(0, 9), 1);
  EXPECT_EQ(t.ColumnIndex("bin"), 7);
  EXPECT_EQ(t.ColumnIndex("missing"), -1);
  EXPECT_EQ(std::get<std::string>(t.Get(0, 6).value()), "héllo");
}

TEST(ResultTableTest, ReadsNullsFromTheBitmapAcrossBytes) {
  TableBytes b;
  for (int c = 0; c < 10; ++c) b.Column(5, "C" + std::to_string(c));
  b.Row({true, false, true, true, true, true, true, true, true, false}).Value<int64_t>(1).Value<int64_t>(9);
  const ResultTable t = MustParse(b.Build());
  EXPECT_TRUE(t.IsNull(0, 0));
  EXPECT_FALSE(t.IsNull(0, 1));
  EXPECT_TRUE(t.IsNull(0, 8));
  EXPECT_EQ(t.GetInt64(0, 0), 0);
  EXPECT_EQ(t.GetInt64(0, 1), 1);
  EXPECT_EQ(t.GetInt64(0, 9), 9);
  EXPECT_TRUE(t.Get(0, 2).is_null());
}

TEST(ResultTableTest, RejectsMisuseWithExceptions) {
  const ResultTable t = MustParse(testing::LongTable(5));
  EXPECT_THROW(t.GetInt64(1, 0), std::out_of_range);
  EXPECT_THROW(t.GetInt64(0, 1), std::out_of_range);
  EXPECT_THROW(t.GetString(0, 0), std::invalid_argument);
}

TEST(ResultTableTest, RejectsTruncatedTableAtEveryLength) {
  const std::string whole = TableBytes().Column(8, "NAME").Column(5, "N")
      .Row({false, false}).Text("abc").Value<int64_t>(3).Build();
  for (size_t n = 0; n < whole.size(); ++n) {
    std::string cut = whole.substr(0, n);
    if (n >= 4) {  // a table_size that agrees with the cut, so the truncation must be found inside
      std::string size;
      TableBytes::Put<uint32_t>(&size, static_cast<uint32_t>(n - 4));
      cut.replace(0, 4, size);
    }
    EXPECT_FALSE(ResultTable::Parse(cut).ok()) << "accepted " << n << " of " << whole.size() << " bytes";
  }
}

TEST(ResultTableTest, RejectsTableSizeThatDisagreesWithTheBytes) {
  std::string bytes = testing::LongTable(1);
  bytes[0] = static_cast<char>(bytes[0] + 1);
  EXPECT_NE(ParseError(bytes).find("table_size"), std::string::npos);
}

TEST(ResultTableTest, RejectsUnknownColumnType) {
  EXPECT_NE(ParseError(TableBytes().Column(42, "X").Build()).find("unknown type 42"), std::string::npos);
}

TEST(ResultTableTest, RejectsRowCountBeyondTheBytes) {
  std::string bytes = TableBytes().Column(5, "N").Build();
  bytes.replace(bytes.size() - 4, 4, std::string("\xff\xff\xff\x0f", 4));
  EXPECT_NE(ParseError(bytes).find("row_count"), std::string::npos);
}

TEST(ResultTableTest, RejectsStringLengthRunningPastItsRow) {
  TableBytes b;
  b.Column(8, "S").Row({false}).Value<uint32_t>(1000).Value<char>('x');
  EXPECT_NE(ParseError(b.Build()).find("runs past"), std::string::npos);
}

TEST(ResultTableTest, RejectsBytesLeftInARow) {
  TableBytes b;
  b.Column(4, "I").Row({false}).Value<int32_t>(1).Value<char>('x');
  EXPECT_NE(ParseError(b.Build()).find("after its last value"), std::string::npos);
}

TEST(ResultTableTest, RejectsNonNullValueOfTypeNull) {
  TableBytes b;
  b.Column(1, "NOTHING").Row({false});
  EXPECT_NE(ParseError(b.Build()).find("type NULL"), std::string::npos);
}

}  // namespace
}  // namespace partita::client
