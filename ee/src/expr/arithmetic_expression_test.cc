// Tests of ADD, SUBTRACT, MULTIPLY, DIVIDE, MODULO, NEGATE and MOD.
#include "expr/arithmetic_expression.h"

#include <gtest/gtest.h>

#include <cmath>

#include "errors.pb.h"
#include "expr/expression_test_helpers.h"
#include "plan.pb.h"

namespace partita {
namespace {

using namespace testing_expr;  // NOLINT: test vocabulary

Expr Op(pb::ExpressionKind kind, pb::ValueType type, Expr a, Expr b) { return Node(kind, type, {a, b}); }
Expr Neg(pb::ValueType type, Expr a) { return Node(pb::EXPRESSION_KIND_NEGATE, type, {a}); }

constexpr auto kAdd = pb::EXPRESSION_KIND_ADD;
constexpr auto kSub = pb::EXPRESSION_KIND_SUBTRACT;
constexpr auto kMul = pb::EXPRESSION_KIND_MULTIPLY;
constexpr auto kDiv = pb::EXPRESSION_KIND_DIVIDE;
constexpr auto kMod = pb::EXPRESSION_KIND_MODULO;
constexpr auto kBig = pb::VALUE_TYPE_BIGINT;

TEST(ArithmeticExpressionTest, ComputesIntegers) {
  Harness h;
  EXPECT_EQ(h.Ok(Op(kAdd, kBig, Int(2), Int(3))).int_value(), 5);
  EXPECT_EQ(h.Ok(Op(kSub, kBig, Int(2), Int(3))).int_value(), -1);
  EXPECT_EQ(h.Ok(Op(kMul, kBig, Int(-4), Int(3))).int_value(), -12);
  EXPECT_EQ(h.Ok(Op(kDiv, kBig, Int(-7), Int(2))).int_value(), -3);  // toward zero
  EXPECT_EQ(h.Ok(Op(kMod, kBig, Int(-7), Int(2))).int_value(), -1);  // sign of the dividend
  EXPECT_EQ(h.Ok(Op(kMod, kBig, Int(7), Int(-2))).int_value(), 1);
  EXPECT_EQ(h.Ok(Neg(kBig, Int(5))).int_value(), -5);
  const Value typed = h.Ok(Op(kAdd, pb::VALUE_TYPE_SMALLINT, Int(2, pb::VALUE_TYPE_TINYINT), Int(3)));
  EXPECT_EQ(typed.type(), ValueType::kSmallInt);
}

TEST(ArithmeticExpressionTest, PropagatesNull) {
  Harness h;
  const Value v = h.Ok(Op(kAdd, kBig, Int(1), Null(kBig)));
  EXPECT_TRUE(v.is_null());
  EXPECT_EQ(v.type(), ValueType::kBigInt);
  EXPECT_TRUE(h.Ok(Op(kDiv, kBig, Null(kBig), Int(0))).is_null());
  EXPECT_TRUE(h.Ok(Neg(pb::VALUE_TYPE_FLOAT, Null(pb::VALUE_TYPE_FLOAT))).is_null());
}

TEST(ArithmeticExpressionTest, RejectsBigIntOverflow) {
  Harness h;
  Result<Value> r = h.Eval(Op(kAdd, kBig, Int(INT64_MAX), Int(1)));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_NE(r.status().message().find("9223372036854775807 + 1"), std::string::npos) << r.status().message();
  EXPECT_EQ(h.Code(Op(kSub, kBig, Int(INT64_MIN), Int(1))), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(h.Code(Op(kMul, kBig, Int(INT64_MAX / 2 + 1), Int(2))), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(h.Code(Op(kDiv, kBig, Int(INT64_MIN), Int(-1))), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(h.Code(Neg(kBig, Int(INT64_MIN))), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(h.Ok(Op(kMod, kBig, Int(INT64_MIN), Int(-1))).int_value(), 0);
}

struct RangeCase {
  pb::ValueType type;
  int64_t max;
  int64_t min;
};

TEST(ArithmeticExpressionTest, RejectsOverflowOfEachIntegerType) {
  Harness h;
  for (const RangeCase& c : {RangeCase{pb::VALUE_TYPE_TINYINT, INT8_MAX, INT8_MIN},
                             RangeCase{pb::VALUE_TYPE_SMALLINT, INT16_MAX, INT16_MIN},
                             RangeCase{pb::VALUE_TYPE_INTEGER, INT32_MAX, INT32_MIN}}) {
    SCOPED_TRACE(pb::ValueType_Name(c.type));
    EXPECT_EQ(h.Ok(Op(kAdd, c.type, Int(c.max - 1, c.type), Int(1, c.type))).int_value(), c.max);
    EXPECT_EQ(h.Code(Op(kAdd, c.type, Int(c.max, c.type), Int(1, c.type))), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
    EXPECT_EQ(h.Code(Op(kSub, c.type, Int(c.min, c.type), Int(1, c.type))), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
    EXPECT_EQ(h.Code(Op(kMul, c.type, Int(c.max, c.type), Int(2, c.type))), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
    EXPECT_EQ(h.Code(Op(kDiv, c.type, Int(c.min, c.type), Int(-1, c.type))), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
    EXPECT_EQ(h.Code(Neg(c.type, Int(c.min, c.type))), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
    Result<Value> r = h.Eval(Op(kAdd, c.type, Int(c.max, c.type), Int(1, c.type)));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find(std::string(TypeName(FromProto(c.type)))), std::string::npos);
  }
}

TEST(ArithmeticExpressionTest, RejectsDivisionByZero) {
  Harness h;
  EXPECT_EQ(h.Code(Op(kDiv, kBig, Int(1), Int(0))), pb::ERROR_CODE_DIVISION_BY_ZERO);
  EXPECT_EQ(h.Code(Op(kMod, kBig, Int(1), Int(0))), pb::ERROR_CODE_DIVISION_BY_ZERO);
  EXPECT_EQ(h.Code(Op(kDiv, pb::VALUE_TYPE_FLOAT, Flt(1), Flt(0))), pb::ERROR_CODE_DIVISION_BY_ZERO);
  EXPECT_EQ(h.Code(Op(kMod, pb::VALUE_TYPE_FLOAT, Flt(1), Flt(0))), pb::ERROR_CODE_DIVISION_BY_ZERO);
  EXPECT_EQ(h.Code(Op(kDiv, pb::VALUE_TYPE_DECIMAL, Dec("1"), Dec("0"))), pb::ERROR_CODE_DIVISION_BY_ZERO);
  EXPECT_EQ(h.Code(Op(kMod, pb::VALUE_TYPE_DECIMAL, Dec("1"), Dec("0"))), pb::ERROR_CODE_DIVISION_BY_ZERO);
}

TEST(ArithmeticExpressionTest, ComputesFloats) {
  Harness h;
  const auto kFloat = pb::VALUE_TYPE_FLOAT;
  EXPECT_DOUBLE_EQ(h.Ok(Op(kAdd, kFloat, Flt(1.5), Flt(2.25))).float_value(), 3.75);
  EXPECT_DOUBLE_EQ(h.Ok(Op(kDiv, kFloat, Flt(1), Flt(4))).float_value(), 0.25);
  EXPECT_DOUBLE_EQ(h.Ok(Op(kMod, kFloat, Flt(7.5), Flt(2))).float_value(), 1.5);
  EXPECT_DOUBLE_EQ(h.Ok(Neg(kFloat, Flt(2))).float_value(), -2);
  // Mixed operands convert to FLOAT.
  EXPECT_DOUBLE_EQ(h.Ok(Op(kMul, kFloat, Int(3), Flt(0.5))).float_value(), 1.5);
  EXPECT_DOUBLE_EQ(h.Ok(Op(kAdd, kFloat, Dec("0.25"), Flt(1))).float_value(), 1.25);
}

TEST(ArithmeticExpressionTest, RejectsNonFiniteFloat) {
  Harness h;
  EXPECT_EQ(h.Code(Op(kMul, pb::VALUE_TYPE_FLOAT, Flt(1e308), Flt(10))), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(h.Code(Op(kSub, pb::VALUE_TYPE_FLOAT, Flt(-1e308), Flt(1e308))), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
}

TEST(ArithmeticExpressionTest, ComputesDecimals) {
  Harness h;
  const auto kDec = pb::VALUE_TYPE_DECIMAL;
  const int128 kOne = kDecimalScaleFactor;
  EXPECT_EQ(h.Ok(Op(kAdd, kDec, Dec("1.5"), Dec("2.25"))).decimal_value(), kOne * 375 / 100);
  EXPECT_EQ(h.Ok(Op(kSub, kDec, Dec("1.5"), Dec("2.25"))).decimal_value(), -kOne * 75 / 100);
  EXPECT_EQ(h.Ok(Op(kMul, kDec, Dec("1.5"), Dec("-2"))).decimal_value(), -3 * kOne);
  EXPECT_EQ(h.Ok(Op(kDiv, kDec, Dec("1"), Dec("3"))).decimal_value(),
            static_cast<int128>(333'333'333'333LL));  // rounded toward zero
  EXPECT_EQ(h.Ok(Op(kMod, kDec, Dec("7.5"), Dec("2"))).decimal_value(), kOne * 15 / 10);
  EXPECT_EQ(h.Ok(Neg(kDec, Dec("2.5"))).decimal_value(), -kOne * 25 / 10);
  // INTEGER + DECIMAL converts the integer.
  EXPECT_EQ(h.Ok(Op(kAdd, kDec, Int(2, pb::VALUE_TYPE_INTEGER), Dec("0.5"))).decimal_value(), kOne * 25 / 10);
}

TEST(ArithmeticExpressionTest, RejectsDecimalOverflow) {
  Harness h;
  const auto kDec = pb::VALUE_TYPE_DECIMAL;
  const std::string big = "99999999999999999999999999";  // 26 digits
  Result<Value> r = h.Eval(Op(kMul, kDec, Dec(big), Dec(big)));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_NE(r.status().message().find(big), std::string::npos);
  EXPECT_EQ(h.Code(Op(kAdd, kDec, Dec(big), Dec(big))), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
}

TEST(ArithmeticExpressionTest, ConvertsWholeNonIntegersIntoIntegerResults) {
  Harness h;
  EXPECT_EQ(h.Ok(Op(kAdd, kBig, Dec("2"), Int(1))).int_value(), 3);
  EXPECT_EQ(h.Code(Op(kAdd, kBig, Dec("2.5"), Int(1))), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_EQ(h.Code(Op(kAdd, kBig, Str("2"), Int(1))), pb::ERROR_CODE_TYPE_MISMATCH);
}

TEST(ArithmeticExpressionTest, AddsMicrosToTimestamps) {
  Harness h;
  const Value v = h.Ok(Op(kAdd, pb::VALUE_TYPE_TIMESTAMP, Ts(1'000'000), Int(5)));
  EXPECT_EQ(v.type(), ValueType::kTimestamp);
  EXPECT_EQ(v.int_value(), 1'000'005);
  EXPECT_EQ(h.Code(Op(kAdd, pb::VALUE_TYPE_TIMESTAMP, Ts(253402300799999999LL), Int(1))),
            pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
}

TEST(ArithmeticExpressionTest, ReadsColumnsOfMixedTypes) {
  Harness h;
  h.row = {Value::Integer(40), Value::BigInt(2), Value::Decimal(kDecimalScaleFactor / 2)};
  EXPECT_EQ(h.Ok(Op(kAdd, kBig, Col(0, pb::VALUE_TYPE_INTEGER), Col(1, kBig))).int_value(), 42);
  EXPECT_EQ(h.Ok(Op(kMul, pb::VALUE_TYPE_DECIMAL, Col(0, pb::VALUE_TYPE_INTEGER), Col(2, pb::VALUE_TYPE_DECIMAL)))
                .decimal_value(),
            20 * static_cast<int128>(kDecimalScaleFactor));
}

TEST(ModFunctionTest, ComputesIntegerRemainder) {
  Harness h;
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_MOD, kBig, {Int(17), Int(5)})).int_value(), 2);
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_MOD, kBig, {Int(-17), Int(5)})).int_value(), -2);
  EXPECT_EQ(h.Code(Fn(pb::FUNCTION_MOD, kBig, {Int(17), Int(0)})), pb::ERROR_CODE_DIVISION_BY_ZERO);
  EXPECT_TRUE(h.Ok(Fn(pb::FUNCTION_MOD, kBig, {Int(17), Null(kBig)})).is_null());
}

}  // namespace
}  // namespace partita
