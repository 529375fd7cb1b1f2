// Tests of the scalar functions: ABS, the text functions and the time
// functions (COALESCE, NULLIF and MOD are in expression_test.cc and
// arithmetic_expression_test.cc).
#include "expr/function_expression.h"

#include <gtest/gtest.h>

#include "errors.pb.h"
#include "expr/expression_test_helpers.h"
#include "plan.pb.h"

namespace partita {
namespace {

using namespace testing_expr;  // NOLINT: test vocabulary

constexpr auto kBig = pb::VALUE_TYPE_BIGINT;
constexpr auto kText = pb::VALUE_TYPE_VARCHAR;
constexpr auto kTs = pb::VALUE_TYPE_TIMESTAMP;

// 2024-02-29 12:34:56.789 UTC, a Thursday, day 60 of the year.
constexpr int64_t kLeapDay = 1'709'210'096'789'000LL;

TEST(AbsFunctionTest, ComputesMagnitude) {
  Harness h;
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_ABS, kBig, {Int(-5)})).int_value(), 5);
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_ABS, kBig, {Int(5)})).int_value(), 5);
  EXPECT_DOUBLE_EQ(h.Ok(Fn(pb::FUNCTION_ABS, pb::VALUE_TYPE_FLOAT, {Flt(-2.5)})).float_value(), 2.5);
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_ABS, pb::VALUE_TYPE_DECIMAL, {Dec("-1.5")})).decimal_value(),
            static_cast<int128>(1'500'000'000'000LL));
  EXPECT_TRUE(h.Ok(Fn(pb::FUNCTION_ABS, kBig, {Null(kBig)})).is_null());
}

TEST(AbsFunctionTest, RejectsOverflow) {
  Harness h;
  EXPECT_EQ(h.Code(Fn(pb::FUNCTION_ABS, kBig, {Int(INT64_MIN)})), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(h.Code(Fn(pb::FUNCTION_ABS, pb::VALUE_TYPE_TINYINT, {Int(-128, pb::VALUE_TYPE_TINYINT)})),
            pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
}

TEST(StringFunctionTest, CountsCharactersAndBytes) {
  Harness h;
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_CHAR_LENGTH, kBig, {Str("héllo")})).int_value(), 5);
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_OCTET_LENGTH, kBig, {Str("héllo")})).int_value(), 6);
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_CHAR_LENGTH, kBig, {Bin("h\xc3\xa9")})).int_value(), 3);  // bytes for VARBINARY
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_CHAR_LENGTH, kBig, {Str("")})).int_value(), 0);
  EXPECT_TRUE(h.Ok(Fn(pb::FUNCTION_CHAR_LENGTH, kBig, {Null(kText)})).is_null());
}

std::string Substring(Harness& h, const std::string& s, int64_t start) {
  return std::string(h.Ok(Fn(pb::FUNCTION_SUBSTRING, kText, {Str(s), Int(start)})).string_value());
}
std::string Substring(Harness& h, const std::string& s, int64_t start, int64_t length) {
  return std::string(h.Ok(Fn(pb::FUNCTION_SUBSTRING, kText, {Str(s), Int(start), Int(length)})).string_value());
}

TEST(StringFunctionTest, SubstringIsOneBasedInCharacters) {
  Harness h;
  EXPECT_EQ(Substring(h, "hello", 2, 3), "ell");
  EXPECT_EQ(Substring(h, "hello", 2), "ello");
  EXPECT_EQ(Substring(h, "héllo", 2, 2), "él");
  EXPECT_EQ(Substring(h, "日本語", 3), "語");
  EXPECT_EQ(Substring(h, "hello", 0, 3), "he");  // positions 0..2 overlap 1..2
  EXPECT_EQ(Substring(h, "hello", -5, 2), "");
  EXPECT_EQ(Substring(h, "hello", 9), "");
  EXPECT_EQ(Substring(h, "hello", 4, 100), "lo");
  EXPECT_EQ(Substring(h, "hello", 1, 0), "");
  EXPECT_EQ(Substring(h, "hello", INT64_MIN, INT64_MAX), "");
  EXPECT_EQ(Substring(h, "hello", 2, INT64_MAX), "ello");
}

TEST(StringFunctionTest, SubstringRejectsNegativeLengthAndPropagatesNull) {
  Harness h;
  EXPECT_EQ(h.Code(Fn(pb::FUNCTION_SUBSTRING, kText, {Str("abc"), Int(1), Int(-1)})), pb::ERROR_CODE_SQL_ERROR);
  EXPECT_TRUE(h.Ok(Fn(pb::FUNCTION_SUBSTRING, kText, {Str("abc"), Null(kBig)})).is_null());
  EXPECT_TRUE(h.Ok(Fn(pb::FUNCTION_SUBSTRING, kText, {Str("abc"), Int(1), Null(kBig)})).is_null());
  EXPECT_TRUE(h.Ok(Fn(pb::FUNCTION_SUBSTRING, kText, {Null(kText), Int(1)})).is_null());
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_SUBSTRING, pb::VALUE_TYPE_VARBINARY, {Bin("\x01\x02\x03"), Int(2), Int(1)}))
                .string_value(),
            "\x02");
}

TEST(StringFunctionTest, UpperAndLowerMapAsciiOnly) {
  Harness h;
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_UPPER, kText, {Str("abc-Xyz é")})).string_value(), "ABC-XYZ é");
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_LOWER, kText, {Str("ABC-xYZ É")})).string_value(), "abc-xyz É");
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_UPPER, kText, {Str("ALREADY")})).string_value(), "ALREADY");
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_LOWER, kText, {Str("")})).string_value(), "");
  EXPECT_TRUE(h.Ok(Fn(pb::FUNCTION_UPPER, kText, {Null(kText)})).is_null());
}

TEST(StringFunctionTest, TrimsSpaces) {
  Harness h;
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_TRIM, kText, {Str("  a b  ")})).string_value(), "a b");
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_LTRIM, kText, {Str("  a b  ")})).string_value(), "a b  ");
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_RTRIM, kText, {Str("  a b  ")})).string_value(), "  a b");
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_TRIM, kText, {Str("   ")})).string_value(), "");
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_TRIM, kText, {Str("\tx\t")})).string_value(), "\tx\t");  // spaces only
  EXPECT_TRUE(h.Ok(Fn(pb::FUNCTION_RTRIM, kText, {Null(kText)})).is_null());
}

TEST(StringFunctionTest, ConcatJoinsArguments) {
  Harness h;
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_CONCAT, kText, {Str("ab"), Str(""), Str("cé")})).string_value(), "abcé");
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_CONCAT, kText, {Str("n="), Int(42)})).string_value(), "n=42");
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_CONCAT, kText, {Str(""), Str("")})).string_value(), "");
  EXPECT_TRUE(h.Ok(Fn(pb::FUNCTION_CONCAT, kText, {Str("a"), Null(kText), Str("b")})).is_null());
}

TEST(StringFunctionTest, ConcatTakesManyArguments) {
  Harness h;
  std::vector<Expr> args;
  std::string expected;
  for (int i = 0; i < 40; ++i) {
    args.push_back(Str(std::to_string(i % 10)));
    expected += std::to_string(i % 10);
  }
  Expr e = NodeN(pb::EXPRESSION_KIND_FUNCTION, kText, args);
  e.set_function(pb::FUNCTION_CONCAT);
  EXPECT_EQ(h.Ok(e).string_value(), expected);
}

TEST(StringFunctionTest, RejectsNonTextArgument) {
  Harness h;
  EXPECT_EQ(h.Code(Fn(pb::FUNCTION_UPPER, kText, {Int(1)})), pb::ERROR_CODE_TYPE_MISMATCH);
}

int64_t Extract(Harness& h, pb::Function fn, int64_t micros) {
  return h.Ok(Fn(fn, kBig, {Ts(micros)})).int_value();
}

TEST(TimeFunctionTest, ExtractsFieldsOfLeapDay) {
  Harness h;
  EXPECT_EQ(Extract(h, pb::FUNCTION_EXTRACT_YEAR, kLeapDay), 2024);
  EXPECT_EQ(Extract(h, pb::FUNCTION_EXTRACT_MONTH, kLeapDay), 2);
  EXPECT_EQ(Extract(h, pb::FUNCTION_EXTRACT_DAY, kLeapDay), 29);
  EXPECT_EQ(Extract(h, pb::FUNCTION_EXTRACT_HOUR, kLeapDay), 12);
  EXPECT_EQ(Extract(h, pb::FUNCTION_EXTRACT_MINUTE, kLeapDay), 34);
  EXPECT_EQ(Extract(h, pb::FUNCTION_EXTRACT_SECOND, kLeapDay), 56);
  EXPECT_EQ(Extract(h, pb::FUNCTION_EXTRACT_DAY_OF_WEEK, kLeapDay), 5);  // Thursday
  EXPECT_EQ(Extract(h, pb::FUNCTION_EXTRACT_DAY_OF_YEAR, kLeapDay), 60);
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_EXTRACT_YEAR, kBig, {Ts(kLeapDay)})).type(), ValueType::kBigInt);
}

TEST(TimeFunctionTest, ExtractsBeforeEpoch) {
  Harness h;
  const int64_t half_second_before = -500'000;  // 1969-12-31 23:59:59.5, a Wednesday
  EXPECT_EQ(Extract(h, pb::FUNCTION_EXTRACT_YEAR, half_second_before), 1969);
  EXPECT_EQ(Extract(h, pb::FUNCTION_EXTRACT_SECOND, half_second_before), 59);
  EXPECT_EQ(Extract(h, pb::FUNCTION_EXTRACT_DAY_OF_WEEK, half_second_before), 4);
  EXPECT_EQ(Extract(h, pb::FUNCTION_EXTRACT_DAY_OF_YEAR, half_second_before), 365);
  EXPECT_EQ(Extract(h, pb::FUNCTION_SINCE_EPOCH_SECONDS, half_second_before), -1);  // floor
}

TEST(TimeFunctionTest, ConvertsEpochUnits) {
  Harness h;
  EXPECT_EQ(Extract(h, pb::FUNCTION_SINCE_EPOCH_SECONDS, kLeapDay), 1'709'210'096);
  EXPECT_EQ(Extract(h, pb::FUNCTION_SINCE_EPOCH_MILLIS, kLeapDay), 1'709'210'096'789);
  EXPECT_EQ(Extract(h, pb::FUNCTION_SINCE_EPOCH_MICROS, kLeapDay), kLeapDay);
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_TO_TIMESTAMP_SECONDS, kTs, {Int(2)})).int_value(), 2'000'000);
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_TO_TIMESTAMP_MILLIS, kTs, {Int(-3)})).int_value(), -3'000);
  const Value ts = h.Ok(Fn(pb::FUNCTION_TO_TIMESTAMP_MICROS, kTs, {Int(7)}));
  EXPECT_EQ(ts.type(), ValueType::kTimestamp);
  EXPECT_EQ(ts.int_value(), 7);
}

TEST(TimeFunctionTest, RejectsTimestampsOutOfRange) {
  Harness h;
  EXPECT_EQ(h.Code(Fn(pb::FUNCTION_TO_TIMESTAMP_SECONDS, kTs, {Int(INT64_MAX / 10)})),
            pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(h.Code(Fn(pb::FUNCTION_TO_TIMESTAMP_MICROS, kTs, {Int(INT64_MIN)})), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(h.Code(Fn(pb::FUNCTION_EXTRACT_YEAR, kBig, {Int(INT64_MIN)})), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(h.Code(Fn(pb::FUNCTION_EXTRACT_YEAR, pb::VALUE_TYPE_TINYINT, {Ts(kLeapDay)})),
            pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
}

TEST(TimeFunctionTest, TruncatesToUnits) {
  Harness h;
  const int64_t day = kLeapDay - (12 * 3600 + 34 * 60 + 56) * 1'000'000LL - 789'000;
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_TRUNCATE_DAY, kTs, {Ts(kLeapDay)})).int_value(), day);
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_TRUNCATE_HOUR, kTs, {Ts(kLeapDay)})).int_value(), day + 12 * 3'600'000'000LL);
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_TRUNCATE_MINUTE, kTs, {Ts(kLeapDay)})).int_value(),
            day + 12 * 3'600'000'000LL + 34 * 60'000'000LL);
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_TRUNCATE_DAY, kTs, {Ts(-1)})).int_value(), -86'400'000'000LL);
}

TEST(TimeFunctionTest, PropagatesNull) {
  Harness h;
  EXPECT_TRUE(h.Ok(Fn(pb::FUNCTION_EXTRACT_MONTH, kBig, {Null(kTs)})).is_null());
  EXPECT_TRUE(h.Ok(Fn(pb::FUNCTION_TRUNCATE_DAY, kTs, {Null(kTs)})).is_null());
  EXPECT_TRUE(h.Ok(Fn(pb::FUNCTION_TO_TIMESTAMP_SECONDS, kTs, {Null(kBig)})).is_null());
}

TEST(TimeFunctionTest, CurrentTimestampIsTheTransactionTimestamp) {
  Harness h;
  h.txn_timestamp = kLeapDay;
  const Value v = h.Ok(Fn(pb::FUNCTION_CURRENT_TIMESTAMP, kTs));
  EXPECT_EQ(v.type(), ValueType::kTimestamp);
  EXPECT_EQ(v.int_value(), kLeapDay);
}

}  // namespace
}  // namespace partita
