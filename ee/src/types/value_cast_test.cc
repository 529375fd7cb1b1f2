#include "errors.pb.h"
#include "types/value_cast.h"

#include <gtest/gtest.h>

#include "types/decimal.h"
#include "types/timestamp.h"

namespace partita {
namespace {

constexpr ConversionMode kExact = ConversionMode::kExact;
constexpr ConversionMode kCast = ConversionMode::kCast;

class ValueCastTest : public ::testing::Test {
 protected:
  Result<Value> Convert(const Value& v, ValueType t, ConversionMode mode, int32_t max_length = 0) {
    return ConvertValue(v, t, max_length, mode, &arena_, "column T.C");
  }
  ErrorCode Code(const Value& v, ValueType t, ConversionMode mode, int32_t max_length = 0) {
    return Convert(v, t, mode, max_length).status().code();
  }
  Arena arena_;
};

TEST_F(ValueCastTest, ExactAllowsNarrowingThatFits) {
  Result<Value> r = Convert(Value::BigInt(5), ValueType::kTinyInt, kExact);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().type(), ValueType::kTinyInt);
  EXPECT_EQ(r.value().int_value(), 5);
  EXPECT_EQ(Convert(Value::BigInt(-128), ValueType::kTinyInt, kExact).value().int_value(), -128);
}

TEST_F(ValueCastTest, OutOfRangeIntegerIsRejectedInBothModes) {
  EXPECT_EQ(Code(Value::BigInt(300), ValueType::kTinyInt, kExact), proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(Code(Value::BigInt(300), ValueType::kTinyInt, kCast), proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(Code(Value::BigInt(int64_t{1} << 40), ValueType::kInteger, kExact), proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(Code(Value::Integer(-32769), ValueType::kSmallInt, kCast), proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
}

TEST_F(ValueCastTest, ExactRejectsFractionalFloatButCastTruncatesTowardZero) {
  EXPECT_FALSE(Convert(Value::Float(2.5), ValueType::kInteger, kExact).ok());
  EXPECT_EQ(Convert(Value::Float(2.0), ValueType::kInteger, kExact).value().int_value(), 2);
  EXPECT_EQ(Convert(Value::Float(2.5), ValueType::kInteger, kCast).value().int_value(), 2);
  EXPECT_EQ(Convert(Value::Float(-2.5), ValueType::kInteger, kCast).value().int_value(), -2);
}

TEST_F(ValueCastTest, ExactRejectsFractionalDecimalButCastTruncatesTowardZero) {
  const Value d = Value::Decimal(decimal::Parse("-7.9").value());
  EXPECT_FALSE(Convert(d, ValueType::kBigInt, kExact).ok());
  EXPECT_EQ(Convert(d, ValueType::kBigInt, kCast).value().int_value(), -7);
  EXPECT_EQ(Convert(Value::Decimal(decimal::Parse("12").value()), ValueType::kTinyInt, kExact).value().int_value(), 12);
}

TEST_F(ValueCastTest, FloatBeyondBigintIsOutOfRange) {
  EXPECT_EQ(Code(Value::Float(1e19), ValueType::kBigInt, kCast), proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(Code(Value::Float(std::numeric_limits<double>::quiet_NaN()), ValueType::kBigInt, kCast),
            proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(Code(Value::Float(9223372036854775808.0), ValueType::kBigInt, kExact),
            proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
}

TEST_F(ValueCastTest, ExactNeverParsesTextAsANumber) {
  EXPECT_EQ(Code(Value::Varchar("12"), ValueType::kInteger, kExact), proto::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_EQ(Code(Value::Varchar("12"), ValueType::kFloat, kExact), proto::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_EQ(Code(Value::Varchar("12"), ValueType::kDecimal, kExact), proto::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_EQ(Code(Value::Integer(12), ValueType::kVarchar, kExact), proto::ERROR_CODE_TYPE_MISMATCH);
}

TEST_F(ValueCastTest, CastParsesNumericText) {
  EXPECT_EQ(Convert(Value::Varchar(" +12 "), ValueType::kInteger, kCast).value().int_value(), 12);
  EXPECT_EQ(Convert(Value::Varchar("2.25"), ValueType::kFloat, kCast).value().float_value(), 2.25);
  EXPECT_EQ(Convert(Value::Varchar("-1.5"), ValueType::kDecimal, kCast).value().decimal_value(),
            decimal::Parse("-1.5").value());
}

TEST_F(ValueCastTest, CastOfNonNumericTextIsTypeMismatch) {
  EXPECT_EQ(Code(Value::Varchar("abc"), ValueType::kInteger, kCast), proto::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_EQ(Code(Value::Varchar("abc"), ValueType::kInteger, kExact), proto::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_EQ(Code(Value::Varchar(""), ValueType::kInteger, kCast), proto::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_EQ(Code(Value::Varchar("4.5"), ValueType::kInteger, kCast), proto::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_EQ(Code(Value::Varchar("abc"), ValueType::kFloat, kCast), proto::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_EQ(Code(Value::Varchar("abc"), ValueType::kDecimal, kCast), proto::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_EQ(Code(Value::Varchar("99999999999999999999"), ValueType::kBigInt, kCast),
            proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
}

TEST_F(ValueCastTest, CastOfTextBeyondTheFloatRangeIsOutOfRange) {
  EXPECT_EQ(Code(Value::Varchar("1e400"), ValueType::kFloat, kCast), proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(Code(Value::Varchar("-1e400"), ValueType::kFloat, kCast), proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(Convert(Value::Varchar("1e300"), ValueType::kFloat, kCast).value().float_value(), 1e300);
}

TEST_F(ValueCastTest, VarcharLengthCountsUtf8Characters) {
  const Value three_chars = Value::Varchar("h\xC3\xA9\xC3\xA9");  // "héé": 5 bytes
  EXPECT_TRUE(Convert(three_chars, ValueType::kVarchar, kExact, 3).ok());
  Result<Value> r = Convert(Value::Varchar("h\xC3\xA9llo"), ValueType::kVarchar, kExact, 4);
  EXPECT_EQ(r.status().code(), proto::ERROR_CODE_VALUE_TOO_LONG);
  EXPECT_NE(r.status().message().find("5 characters"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("column T.C"), std::string::npos) << r.status().message();
}

TEST_F(ValueCastTest, VarbinaryLengthCountsBytes) {
  const Value bytes = Value::Varbinary("h\xC3\xA9\xC3\xA9");
  EXPECT_EQ(Code(bytes, ValueType::kVarbinary, kExact, 3), proto::ERROR_CODE_VALUE_TOO_LONG);
  EXPECT_TRUE(Convert(bytes, ValueType::kVarbinary, kExact, 5).ok());
}

TEST_F(ValueCastTest, CastToTextChecksTheResultLength) {
  EXPECT_EQ(Code(Value::Integer(12345), ValueType::kVarchar, kCast, 3), proto::ERROR_CODE_VALUE_TOO_LONG);
  EXPECT_EQ(Convert(Value::Integer(-42), ValueType::kVarchar, kCast).value().string_value(), "-42");
  EXPECT_EQ(Convert(Value::Decimal(decimal::Parse("1.50").value()), ValueType::kVarchar, kCast).value().string_value(),
            "1.5");
  EXPECT_EQ(Convert(Value::Timestamp(1), ValueType::kVarchar, kCast).value().string_value(),
            "1970-01-01 00:00:00.000001");
}

TEST_F(ValueCastTest, NullConvertsToATypedNull) {
  Result<Value> r = Convert(Value(), ValueType::kInteger, kExact);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.value().is_null());
  EXPECT_EQ(r.value().type(), ValueType::kInteger);
}

TEST_F(ValueCastTest, IntegerToTimestampChecksTheYearRange) {
  EXPECT_EQ(Convert(Value::BigInt(5), ValueType::kTimestamp, kExact).value().int_value(), 5);
  EXPECT_EQ(Code(Value::BigInt(timestamp::kMaxMicros + 1), ValueType::kTimestamp, kExact),
            proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(Code(Value::Varchar("2023-02-29"), ValueType::kTimestamp, kCast), proto::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_EQ(Convert(Value::Varchar("1970-01-02"), ValueType::kTimestamp, kCast).value().int_value(),
            timestamp::kMicrosPerDay);
}

TEST_F(ValueCastTest, IntegersWidenToFloatAndDecimal) {
  EXPECT_EQ(Convert(Value::Integer(3), ValueType::kFloat, kExact).value().float_value(), 3.0);
  EXPECT_EQ(Convert(Value::BigInt(-3), ValueType::kDecimal, kExact).value().decimal_value(),
            -3 * static_cast<int128>(kDecimalScaleFactor));
}

}  // namespace
}  // namespace partita
