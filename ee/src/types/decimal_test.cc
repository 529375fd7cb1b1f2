#include "errors.pb.h"
#include "types/decimal.h"

#include <gtest/gtest.h>

namespace partita {
namespace {

int128 D(std::string_view text) {
  Result<int128> r = decimal::Parse(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
  return r.ok() ? r.value() : 0;
}

std::string F(Result<int128> r) { return r.ok() ? decimal::Format(r.value()) : r.status().ToString(); }

TEST(DecimalTest, ParseThenFormatRoundTrips) {
  for (const char* text : {"0", "3", "-12.5", "0.000000000001", "-0.5", "123456789.123456789012"}) {
    EXPECT_EQ(decimal::Format(D(text)), text);
  }
}

TEST(DecimalTest, ParseAcceptsSignsSpacesAndLeadingZeros) {
  EXPECT_EQ(D("+7"), 7 * static_cast<int128>(kDecimalScaleFactor));
  EXPECT_EQ(D("  -0007.50 "), -7'500'000'000'000);
  EXPECT_EQ(D(".5"), 500'000'000'000);
  EXPECT_EQ(D("5."), 5'000'000'000'000);
  EXPECT_EQ(decimal::Format(D("-0")), "0");
}

TEST(DecimalTest, ParseAcceptsThirtyEightDigits) {
  EXPECT_EQ(D("99999999999999999999999999.999999999999"), kDecimalMaxUnscaled);
  EXPECT_EQ(D("-99999999999999999999999999.999999999999"), -kDecimalMaxUnscaled);
  EXPECT_EQ(decimal::Format(kDecimalMaxUnscaled), "99999999999999999999999999.999999999999");
}

TEST(DecimalTest, ParseRejectsTooManyIntegerOrFractionDigits) {
  EXPECT_EQ(decimal::Parse("100000000000000000000000000").status().code(), proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(decimal::Parse("0.0000000000001").status().code(), proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
}

TEST(DecimalTest, ParseRejectsMalformedText) {
  for (const char* text : {"", " ", "-", ".", "1.2.3", "abc", "1e5", "1 2", "--1", "0x10"}) {
    EXPECT_EQ(decimal::Parse(text).status().code(), proto::ERROR_CODE_TYPE_MISMATCH) << "'" << text << "'";
  }
}

TEST(DecimalTest, AddAndSubtractStopAtThePrecisionBound) {
  EXPECT_EQ(F(decimal::Add(D("1.25"), D("-3.5"))), "-2.25");
  EXPECT_EQ(F(decimal::Subtract(D("1.25"), D("-3.5"))), "4.75");
  EXPECT_TRUE(decimal::Add(kDecimalMaxUnscaled, -1).ok());
  EXPECT_EQ(decimal::Add(kDecimalMaxUnscaled, 1).status().code(), proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(decimal::Subtract(-kDecimalMaxUnscaled, 1).status().code(), proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(decimal::Subtract(kDecimalMaxUnscaled, -kDecimalMaxUnscaled).status().code(),
            proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
}

TEST(DecimalTest, MultiplyKeepsScaleAndTruncatesTowardZero) {
  EXPECT_EQ(F(decimal::Multiply(D("1.5"), D("-2.5"))), "-3.75");
  EXPECT_EQ(F(decimal::Multiply(D("0.000001"), D("0.000001"))), "0.000000000001");
  EXPECT_EQ(F(decimal::Multiply(D("0.000001"), D("0.0000001"))), "0");
  EXPECT_EQ(F(decimal::Multiply(D("-1.5"), D("0.000000000001"))), "-0.000000000001");
}

TEST(DecimalTest, MultiplyDetectsOverflowBeyondThirtyEightDigits) {
  EXPECT_EQ(F(decimal::Multiply(D("9999999999999"), D("10000000000000"))), "99999999999990000000000000");
  EXPECT_EQ(decimal::Multiply(D("10000000000000"), D("10000000000000")).status().code(),
            proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(decimal::Multiply(kDecimalMaxUnscaled, kDecimalMaxUnscaled).status().code(),
            proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
}

TEST(DecimalTest, DivideTruncatesTowardZeroAtTheTwelfthDigit) {
  EXPECT_EQ(F(decimal::Divide(D("1"), D("3"))), "0.333333333333");
  EXPECT_EQ(F(decimal::Divide(D("-2"), D("3"))), "-0.666666666666");
  EXPECT_EQ(F(decimal::Divide(D("2"), D("-3"))), "-0.666666666666");
  EXPECT_EQ(F(decimal::Divide(D("7.5"), D("2.5"))), "3");
}

TEST(DecimalTest, DivideByZeroAndOverflowAreErrors) {
  EXPECT_EQ(decimal::Divide(D("1"), 0).status().code(), proto::ERROR_CODE_DIVISION_BY_ZERO);
  EXPECT_EQ(decimal::Divide(kDecimalMaxUnscaled, D("0.1")).status().code(), proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(decimal::Divide(D("99999999999999999999999999"), D("0.001")).status().code(),
            proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
}

TEST(DecimalTest, ToIntTruncatesTowardZeroAndChecksBigintRange) {
  EXPECT_EQ(decimal::ToInt(D("-2.7")).value(), -2);
  EXPECT_EQ(decimal::ToInt(D("2.7")).value(), 2);
  EXPECT_EQ(decimal::ToInt(D("9223372036854775807.9")).value(), INT64_MAX);
  EXPECT_EQ(decimal::ToInt(D("9223372036854775808")).status().code(), proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
}

TEST(DecimalTest, FromDoubleRejectsNonFiniteAndHugeValues) {
  EXPECT_EQ(decimal::FromDouble(2.5).value(), D("2.5"));
  EXPECT_FALSE(decimal::FromDouble(std::numeric_limits<double>::quiet_NaN()).ok());
  EXPECT_FALSE(decimal::FromDouble(std::numeric_limits<double>::infinity()).ok());
  EXPECT_FALSE(decimal::FromDouble(1e26).ok());
}

}  // namespace
}  // namespace partita
