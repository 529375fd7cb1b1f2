// The binary result format (result_table.h, docs/engine-formats.md): what the
// engine writes reads back through ResultTableReader, and malformed bytes are
// rejected by Parse instead of being read past their end.
#include "errors.pb.h"
#include "partita/result_table.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "testing/engine_fixture.h"
#include "types/decimal.h"

namespace partita {
namespace {

using testing::ConstInt;
using testing::ConstNull;

const testing::OutputColumns kEveryType = {
    {"T_TINY", ValueType::kTinyInt},  {"T_SMALL", ValueType::kSmallInt}, {"T_INT", ValueType::kInteger},
    {"T_BIG", ValueType::kBigInt},    {"T_FLOAT", ValueType::kFloat},    {"T_DEC", ValueType::kDecimal},
    {"T_TEXT", ValueType::kVarchar},  {"T_BIN", ValueType::kVarbinary},  {"T_TS", ValueType::kTimestamp},
    {"T_EMPTY", ValueType::kVarchar}};

class ResultTableTest : public testing::EngineFixture {
 protected:
  void SetUp() override {
    std::vector<proto::Expression> values = {
        ConstInt(-5, ValueType::kTinyInt),   ConstInt(-300, ValueType::kSmallInt),
        ConstInt(70000, ValueType::kInteger), ConstInt(int64_t{1} << 40, ValueType::kBigInt),
        testing::ConstFloat(2.5),             testing::ConstDecimal("-12.000000000005"),
        testing::ConstString("h\xC3\xA9llo"), testing::ConstBytes(std::string("\x00\xff", 2)),
        ConstInt(1234567, ValueType::kTimestamp), testing::ConstString("")};
    std::vector<proto::Expression> nulls;
    for (const auto& [name, type] : kEveryType) nulls.push_back(ConstNull(type));
    catalog_.Statement("every", testing::ValuesNode({values, nulls}, kEveryType), {});
    catalog_.Statement("two", testing::ValuesNode({{ConstInt(2)}}, {{"N", ValueType::kBigInt}}), {});
    catalog_.Table("T").Column("ID", ValueType::kBigInt).Column("S", ValueType::kVarchar, 50);
    catalog_.Statement("insertT", catalog_.InsertParams("T"), catalog_.ColumnTypes("T"));
    catalog_.Statement("allT", catalog_.SeqScan("T"), {});
  }

  // The bytes of the first table of the last batch.
  std::vector<uint8_t> TableBytes() {
    const auto t = results_.table(0);
    return {t.begin(), t.end()};
  }
};

TEST_F(ResultTableTest, EveryTypeRoundTripsWithItsColumnName) {
  Open();
  ASSERT_TRUE(Run("every").ok());
  ResultTableReader t = Table(0);
  ASSERT_EQ(t.column_count(), 10);
  ASSERT_EQ(t.row_count(), 2);
  for (int c = 0; c < 10; ++c) {
    EXPECT_EQ(t.column_name(c), kEveryType[c].first);
    EXPECT_EQ(t.column_type(c), kEveryType[c].second);
    EXPECT_TRUE(t.Get(1, c).is_null()) << c;
    EXPECT_EQ(t.Get(1, c).type(), kEveryType[c].second);
  }
  EXPECT_EQ(t.Get(0, 0).int_value(), -5);
  EXPECT_EQ(t.Get(0, 1).int_value(), -300);
  EXPECT_EQ(t.Get(0, 2).int_value(), 70000);
  EXPECT_EQ(t.Get(0, 3).int_value(), int64_t{1} << 40);
  EXPECT_EQ(t.Get(0, 4).float_value(), 2.5);
  EXPECT_EQ(t.Get(0, 5).decimal_value(), decimal::Parse("-12.000000000005").value());
  EXPECT_EQ(t.Get(0, 6).string_value(), "h\xC3\xA9llo");
  EXPECT_EQ(t.Get(0, 7).string_value(), std::string_view("\x00\xff", 2));
  EXPECT_EQ(t.Get(0, 8).int_value(), 1234567);
  EXPECT_EQ(t.Get(0, 9).string_value(), "");
  EXPECT_FALSE(t.Get(0, 9).is_null());
}

TEST_F(ResultTableTest, BytesMatchTheDocumentedExample) {
  Open();
  ASSERT_TRUE(Run("two").ok());
  // docs/engine-formats.md prints table_size = 0x1a (26); the bytes after the
  // field are 23, as the format's definition requires.
  const std::vector<uint8_t> expected = {0x17, 0, 0, 0, 1, 0, 5, 1, 0, 'N', 1, 0, 0, 0, 9, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(TableBytes(), expected);
  const auto all = results_.bytes();
  ASSERT_GE(all.size(), 4u);
  EXPECT_EQ(all[0], 1);  // table_count
}

TEST_F(ResultTableTest, EveryTruncationIsRejected) {
  Open();
  ASSERT_TRUE(Run("every").ok());
  const std::vector<uint8_t> bytes = TableBytes();
  for (size_t n = 0; n < bytes.size(); ++n) {
    Result<ResultTableReader> r = ResultTableReader::Parse({bytes.data(), n});
    EXPECT_EQ(r.status().code(), proto::ERROR_CODE_BAD_REQUEST) << "prefix of " << n << " bytes";
  }
}

TEST_F(ResultTableTest, StringLengthPastItsRowIsRejected) {
  Open();
  ASSERT_TRUE(Run("insertT", {Value::BigInt(1), Value::Varchar("abc")}).ok());
  ASSERT_TRUE(Run("allT").ok());
  std::vector<uint8_t> bytes = TableBytes();
  // header: 4 size, 2 count, (1 + 2 + 2) "ID", (1 + 2 + 1) "S", 4 rows; row: 4 size, 1 bitmap, 8 id, 4 length.
  const size_t length_at = 4 + 2 + 5 + 4 + 4 + 4 + 1 + 8;
  ASSERT_EQ(bytes[length_at], 3);
  bytes[length_at + 2] = 0x7f;
  EXPECT_EQ(ResultTableReader::Parse(bytes).status().code(), proto::ERROR_CODE_BAD_REQUEST);
}

TEST_F(ResultTableTest, RowSizeThatDisagreesWithItsValuesIsRejected) {
  Open();
  ASSERT_TRUE(Run("two").ok());
  std::vector<uint8_t> bytes = TableBytes();
  bytes[14] = 1;  // row_size: the bitmap only, the BIGINT left dangling
  EXPECT_EQ(ResultTableReader::Parse(bytes).status().code(), proto::ERROR_CODE_BAD_REQUEST);
  bytes[14] = 5;  // half of the BIGINT
  EXPECT_EQ(ResultTableReader::Parse(bytes).status().code(), proto::ERROR_CODE_BAD_REQUEST);
}

TEST_F(ResultTableTest, TableSizeNearUint32MaxIsRejected) {
  Open();
  ASSERT_TRUE(Run("two").ok());
  std::vector<uint8_t> bytes = TableBytes();
  bytes[0] = bytes[1] = bytes[2] = bytes[3] = 0xff;  // size + 4 wraps around in 32 bits
  EXPECT_EQ(ResultTableReader::Parse(bytes).status().code(), proto::ERROR_CODE_BAD_REQUEST);
}

TEST_F(ResultTableTest, UnknownColumnTypeIsRejected) {
  Open();
  ASSERT_TRUE(Run("two").ok());
  std::vector<uint8_t> bytes = TableBytes();
  for (const uint8_t type : {0, 12, 200}) {
    bytes[6] = type;
    EXPECT_EQ(ResultTableReader::Parse(bytes).status().code(), proto::ERROR_CODE_BAD_REQUEST) << int{type};
  }
}

TEST_F(ResultTableTest, RandomCorruptionIsRejectedOrReadsWithinBounds) {
  Open();
  ASSERT_TRUE(Run("every").ok());
  const std::vector<uint8_t> good = TableBytes();
  std::mt19937 rng(5);
  for (int i = 0; i < 5000; ++i) {
    std::vector<uint8_t> bytes = good;
    for (int flips = 1 + static_cast<int>(rng() % 3); flips > 0; --flips) bytes[rng() % bytes.size()] = rng() & 0xff;
    // A heap copy of exactly the table, so ASan catches any read past it.
    std::unique_ptr<uint8_t[]> exact(new uint8_t[bytes.size()]);
    std::copy(bytes.begin(), bytes.end(), exact.get());
    Result<ResultTableReader> r = ResultTableReader::Parse({exact.get(), bytes.size()});
    if (r.ok()) {
      EXPECT_FALSE(r.value().ToString().empty() && r.value().row_count() > 0);
    }
  }
}

TEST_F(ResultTableTest, ResultsBeyondTheLimitAreResultTooLargeAndRollBack) {
  EngineOptions options;
  options.max_result_bytes = 1024;  // one scan of T fits (~600 bytes), two do not
  OpenWith(options);
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(Run("insertT", {Value::BigInt(i), Value::Varchar("0123456789")}).ok());
  EXPECT_TRUE(Run("allT").ok());
  Status s = RunBatch({Call("insertT", {Value::BigInt(99), Value::Varchar("x")}), Call("allT", {}), Call("allT", {})});
  EXPECT_EQ(s.code(), proto::ERROR_CODE_RESULT_TOO_LARGE) << s.ToString();
  EXPECT_EQ(results_.table_count(), 0);
  EXPECT_EQ(RowCount("T"), 20);
  EXPECT_FALSE(engine_->in_transaction());
}


// A table in the documented format: `columns` BIGINT columns named C0, C1,
// ..., and `rows` rows where row r, column c holds r * 100 + c, except that
// column 1 (if there is one) is NULL in odd rows.
std::vector<uint8_t> WideTable(int columns, int rows) {
  std::vector<uint8_t> body;
  auto put = [&body](auto v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    body.insert(body.end(), p, p + sizeof v);
  };
  put(static_cast<uint16_t>(columns));
  for (int c = 0; c < columns; ++c) {
    const std::string name = "C" + std::to_string(c);
    put(static_cast<uint8_t>(ValueType::kBigInt));
    put(static_cast<uint16_t>(name.size()));
    body.insert(body.end(), name.begin(), name.end());
  }
  put(static_cast<uint32_t>(rows));
  const int bitmap = (columns + 7) / 8;
  for (int r = 0; r < rows; ++r) {
    const bool null_one = columns > 1 && r % 2 == 1;
    put(static_cast<uint32_t>(bitmap + 8 * (columns - (null_one ? 1 : 0))));
    for (int b = 0; b < bitmap; ++b) body.push_back(b == 0 && null_one ? 0x02 : 0);
    for (int c = 0; c < columns; ++c) {
      if (c != 1 || !null_one) put(static_cast<int64_t>(r * 100 + c));
    }
  }
  std::vector<uint8_t> table;
  const auto size = static_cast<uint32_t>(body.size());
  table.insert(table.end(), reinterpret_cast<const uint8_t*>(&size), reinterpret_cast<const uint8_t*>(&size) + 4);
  table.insert(table.end(), body.begin(), body.end());
  return table;
}

void ExpectWideTable(const ResultTableReader& t, int columns, int rows) {
  ASSERT_EQ(t.column_count(), columns);
  ASSERT_EQ(t.row_count(), rows);
  std::vector<Value> row(static_cast<size_t>(columns));
  for (int c = 0; c < columns; ++c) EXPECT_EQ(t.column_name(c), "C" + std::to_string(c));
  for (int r = 0; r < rows; ++r) {
    t.GetRow(r, row.data());
    for (int c = 0; c < columns; ++c) {
      const bool null = c == 1 && r % 2 == 1;  // never with one column
      ASSERT_EQ(t.Get(r, c).is_null(), null) << r << "," << c;
      ASSERT_EQ(row[static_cast<size_t>(c)].is_null(), null) << r << "," << c;
      if (!null) {
        ASSERT_EQ(t.Get(r, c).int_value(), r * 100 + c) << r << "," << c;
        ASSERT_EQ(row[static_cast<size_t>(c)].int_value(), r * 100 + c) << r << "," << c;
      }
    }
  }
}

TEST(ResultTableReaderTest, TablesWiderAndLongerThanTheInlineArraysReadBackWhole) {
  for (const int columns : {1, ResultTableReader::kInlineColumns, ResultTableReader::kInlineColumns + 1, 40}) {
    for (const int rows : {0, 1, ResultTableReader::kInlineRows, ResultTableReader::kInlineRows + 1, 100}) {
      const std::vector<uint8_t> bytes = WideTable(columns, rows);
      Result<ResultTableReader> parsed = ResultTableReader::Parse(bytes);
      ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
      SCOPED_TRACE(std::to_string(columns) + " columns, " + std::to_string(rows) + " rows");
      ASSERT_NO_FATAL_FAILURE(ExpectWideTable(*parsed, columns, rows));
      // Moved and copied readers still read their table (the inline arrays
      // travel with them).
      ResultTableReader moved = std::move(parsed).value();
      ASSERT_NO_FATAL_FAILURE(ExpectWideTable(moved, columns, rows));
      const ResultTableReader copy = moved;
      ASSERT_NO_FATAL_FAILURE(ExpectWideTable(copy, columns, rows));
    }
  }
}

TEST(ResultTableReaderTest, AMalformedRowPastTheInlineRowsIsRejectedByNumber) {
  const int rows = ResultTableReader::kInlineRows + 3;
  std::vector<uint8_t> bytes = WideTable(3, rows);
  // The last row (even: three values) claims column 0 is NULL, so its bytes
  // hold one value more than its columns.
  bytes[bytes.size() - 3 * 8 - 1] = 0x01;
  Result<ResultTableReader> parsed = ResultTableReader::Parse(bytes);
  EXPECT_EQ(parsed.status().code(), proto::ERROR_CODE_BAD_REQUEST);
  EXPECT_NE(parsed.status().message().find("row " + std::to_string(rows - 1)), std::string::npos)
      << parsed.status().message();
}

}  // namespace
}  // namespace partita
