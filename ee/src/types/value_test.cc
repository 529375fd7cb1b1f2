#include "partita/value.h"

#include <gtest/gtest.h>

#include <cmath>

#include "types/decimal.h"

namespace partita {
namespace {

Value Dec(std::string_view text) { return Value::Decimal(decimal::Parse(text).value()); }

// Equal values must hash equally (hash indexes, GROUP BY and DISTINCT rely on it).
void ExpectEqualAndSameHash(const Value& a, const Value& b) {
  EXPECT_EQ(CompareValues(a, b), 0) << a.ToString() << " vs " << b.ToString();
  EXPECT_EQ(CompareValues(b, a), 0) << b.ToString() << " vs " << a.ToString();
  EXPECT_EQ(HashValue(a), HashValue(b)) << a.ToString() << " vs " << b.ToString();
}

TEST(ValueTest, IntegersOfEveryWidthCompareAndHashByValue) {
  const Value values[] = {Value::TinyInt(-7), Value::SmallInt(-7), Value::Integer(-7), Value::BigInt(-7)};
  for (const Value& a : values) {
    for (const Value& b : values) ExpectEqualAndSameHash(a, b);
  }
  EXPECT_LT(CompareValues(Value::TinyInt(-7), Value::BigInt(300)), 0);
  EXPECT_GT(CompareValues(Value::BigInt(INT64_MAX), Value::Integer(INT32_MAX)), 0);
}

TEST(ValueTest, WholeFloatAndDecimalEqualTheInteger) {
  ExpectEqualAndSameHash(Value::Float(3.0), Value::Integer(3));
  ExpectEqualAndSameHash(Dec("3"), Value::BigInt(3));
  ExpectEqualAndSameHash(Dec("-3.000"), Value::Float(-3.0));
  ExpectEqualAndSameHash(Dec("9223372036854775807"), Value::BigInt(INT64_MAX));
}

TEST(ValueTest, FractionalFloatAndDecimalWithEqualValuesHashEqually) {
  ExpectEqualAndSameHash(Value::Float(2.5), Dec("2.5"));
  ExpectEqualAndSameHash(Value::Float(-0.125), Dec("-0.125"));
  ExpectEqualAndSameHash(Value::Float(0.1), Dec("0.1"));
}

TEST(ValueTest, HugeWholeFloatAndDecimalWithEqualValuesHashEqually) {
  ExpectEqualAndSameHash(Value::Float(1e20), Dec("100000000000000000000"));
  ExpectEqualAndSameHash(Value::Float(-1e25), Dec("-10000000000000000000000000"));
}

TEST(ValueTest, NegativeZeroEqualsZero) {
  ExpectEqualAndSameHash(Value::Float(-0.0), Value::Float(0.0));
  ExpectEqualAndSameHash(Value::Float(-0.0), Value::Integer(0));
  ExpectEqualAndSameHash(Dec("-0"), Value::Float(-0.0));
}

TEST(ValueTest, DecimalComparesExactlyWithIntegers) {
  EXPECT_LT(CompareValues(Dec("2.999999999999"), Value::Integer(3)), 0);
  EXPECT_GT(CompareValues(Dec("3.000000000001"), Value::Integer(3)), 0);
  EXPECT_GT(CompareValues(Value::BigInt(INT64_MIN), Dec("-9223372036854775809")), 0);
}

TEST(ValueTest, NanSortsAfterEveryNumber) {
  const Value nan = Value::Float(std::nan(""));
  EXPECT_GT(CompareValues(nan, Value::Float(INFINITY)), 0);
  EXPECT_LT(CompareValues(Value::BigInt(INT64_MAX), nan), 0);
  EXPECT_EQ(CompareValues(nan, nan), 0);
}

TEST(ValueTest, StringsCompareBytewiseThenByLength) {
  EXPECT_LT(CompareValues(Value::Varchar("ab"), Value::Varchar("abc")), 0);
  EXPECT_GT(CompareValues(Value::Varchar("b"), Value::Varchar("abc")), 0);
  EXPECT_GT(CompareValues(Value::Varchar("\xC3\xA9"), Value::Varchar("z")), 0);  // unsigned bytes
  ExpectEqualAndSameHash(Value::Varchar(""), Value::Varchar(std::string_view()));
  ExpectEqualAndSameHash(Value::Varchar("abc"), Value::Varbinary("abc"));
}

TEST(ValueTest, TimestampsCompareWithIntegers) {
  ExpectEqualAndSameHash(Value::Timestamp(1'000'000), Value::BigInt(1'000'000));
  EXPECT_LT(CompareValues(Value::Timestamp(-1), Value::Integer(0)), 0);
}

TEST(ValueTest, ToStringShowsSqlLiterals) {
  EXPECT_EQ(Value::Null(ValueType::kInteger).ToString(), "NULL");
  EXPECT_EQ(Value::Varchar("a").ToString(), "'a'");
  EXPECT_EQ(Value::Varbinary(std::string_view("\x0a\xff", 2)).ToString(), "x'0aff'");
  EXPECT_EQ(Value::Boolean(true).ToString(), "TRUE");
  EXPECT_EQ(Value::Float(1.5).ToString(), "1.5");
  EXPECT_EQ(Dec("-12.5").ToString(), "-12.5");
}

}  // namespace
}  // namespace partita
