// Tests of BuildExpression validation, the leaves, CASE, CAST, COALESCE,
// NULLIF and EvalPredicate.
#include "expr/expression.h"

#include <gtest/gtest.h>

#include "errors.pb.h"
#include "expr/expression_test_helpers.h"
#include "plan.pb.h"

namespace partita {
namespace {

using namespace testing_expr;  // NOLINT: test vocabulary

ErrorCode BuildCode(const Expr& e, int columns = 2, int params = 1) {
  Result<std::unique_ptr<Expression>> r = BuildExpression(e, ExpressionScope{columns, params});
  return r.ok() ? pb::ERROR_CODE_OK : r.status().code();
}

std::string BuildMessage(const Expr& e, int columns = 2, int params = 1) {
  Result<std::unique_ptr<Expression>> r = BuildExpression(e, ExpressionScope{columns, params});
  return r.ok() ? "" : r.status().message();
}

TEST(BuildExpressionTest, RejectsColumnOutsideScope) {
  EXPECT_EQ(BuildCode(Col(2, pb::VALUE_TYPE_BIGINT)), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Col(-1, pb::VALUE_TYPE_BIGINT)), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_NE(BuildMessage(Col(7, pb::VALUE_TYPE_BIGINT)).find("COLUMN index 7"), std::string::npos);
  EXPECT_EQ(BuildCode(Col(1, pb::VALUE_TYPE_BIGINT)), pb::ERROR_CODE_OK);
}

TEST(BuildExpressionTest, RejectsParameterOutsideScope) {
  EXPECT_EQ(BuildCode(Param(1, pb::VALUE_TYPE_BIGINT)), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_NE(BuildMessage(Param(3, pb::VALUE_TYPE_BIGINT)).find("PARAMETER index 3"), std::string::npos);
  EXPECT_EQ(BuildCode(Param(0, pb::VALUE_TYPE_BIGINT)), pb::ERROR_CODE_OK);
}

TEST(BuildExpressionTest, RejectsUnknownKind) {
  Expr e = Int(1);
  e.set_kind(static_cast<pb::ExpressionKind>(99));
  EXPECT_EQ(BuildCode(e), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_NE(BuildMessage(e).find("99"), std::string::npos);
  e.set_kind(pb::EXPRESSION_KIND_UNSPECIFIED);
  EXPECT_EQ(BuildCode(e), pb::ERROR_CODE_BAD_PLAN);
}

TEST(BuildExpressionTest, RejectsUnknownFunction) {
  EXPECT_EQ(BuildCode(Fn(pb::FUNCTION_UNSPECIFIED, pb::VALUE_TYPE_BIGINT, {Int(1)})), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Fn(static_cast<pb::Function>(77), pb::VALUE_TYPE_BIGINT, {Int(1)})), pb::ERROR_CODE_BAD_PLAN);
}

TEST(BuildExpressionTest, RejectsWrongChildCounts) {
  const auto kBig = pb::VALUE_TYPE_BIGINT;
  const auto kBool = pb::VALUE_TYPE_BOOLEAN;
  EXPECT_EQ(BuildCode(Node(pb::EXPRESSION_KIND_ADD, kBig, {Int(1)})), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Node(pb::EXPRESSION_KIND_NEGATE, kBig, {Int(1), Int(2)})), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Node(pb::EXPRESSION_KIND_EQUAL, kBool, {Int(1)})), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Node(pb::EXPRESSION_KIND_AND, kBool, {Bool(true)})), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Node(pb::EXPRESSION_KIND_IN_LIST, kBool, {Int(1)})), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Node(pb::EXPRESSION_KIND_BETWEEN, kBool, {Int(1), Int(2)})), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Node(pb::EXPRESSION_KIND_LIKE, kBool, {Str("a")})), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Node(pb::EXPRESSION_KIND_CAST, kBig, {})), pb::ERROR_CODE_BAD_PLAN);
  Expr column = Col(0, kBig);
  *column.add_children() = Int(1);
  EXPECT_EQ(BuildCode(column), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Fn(pb::FUNCTION_NULLIF, kBig, {Int(1)})), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Fn(pb::FUNCTION_SUBSTRING, pb::VALUE_TYPE_VARCHAR, {Str("a")})), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Fn(pb::FUNCTION_CURRENT_TIMESTAMP, pb::VALUE_TYPE_TIMESTAMP, {Int(1)})),
            pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Fn(pb::FUNCTION_COALESCE, kBig, {})), pb::ERROR_CODE_BAD_PLAN);
}

TEST(BuildExpressionTest, RejectsMalformedCase) {
  Expr no_pairs = Node(pb::EXPRESSION_KIND_CASE, pb::VALUE_TYPE_BIGINT, {Bool(true), Int(1), Int(2)});
  EXPECT_EQ(BuildCode(no_pairs), pb::ERROR_CODE_BAD_PLAN);  // odd count without has_else
  no_pairs.set_has_else(true);
  EXPECT_EQ(BuildCode(no_pairs), pb::ERROR_CODE_OK);
  Expr only_else = Node(pb::EXPRESSION_KIND_CASE, pb::VALUE_TYPE_BIGINT, {Int(1)});
  only_else.set_has_else(true);
  EXPECT_EQ(BuildCode(only_else), pb::ERROR_CODE_BAD_PLAN);
}

TEST(BuildExpressionTest, RejectsBadResultTypes) {
  EXPECT_EQ(BuildCode(Node(pb::EXPRESSION_KIND_EQUAL, pb::VALUE_TYPE_BIGINT, {Int(1), Int(1)})),
            pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Node(pb::EXPRESSION_KIND_ADD, pb::VALUE_TYPE_VARCHAR, {Int(1), Int(1)})),
            pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Node(pb::EXPRESSION_KIND_ADD, pb::VALUE_TYPE_UNSPECIFIED, {Int(1), Int(1)})),
            pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Fn(pb::FUNCTION_EXTRACT_YEAR, pb::VALUE_TYPE_VARCHAR, {Ts(0)})), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Fn(pb::FUNCTION_UPPER, pb::VALUE_TYPE_BIGINT, {Str("a")})), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Cast(pb::VALUE_TYPE_NULL, Int(1))), pb::ERROR_CODE_BAD_PLAN);
}

TEST(BuildExpressionTest, RejectsBadConstants) {
  Expr missing = Node(pb::EXPRESSION_KIND_CONSTANT, pb::VALUE_TYPE_BIGINT);
  EXPECT_EQ(BuildCode(missing), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_NE(BuildMessage(missing).find("CONSTANT"), std::string::npos);
  Expr wrong_field = Const(pb::VALUE_TYPE_BIGINT);
  wrong_field.mutable_constant()->set_string_value("12");
  EXPECT_EQ(BuildCode(wrong_field), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Int(300, pb::VALUE_TYPE_TINYINT)), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Dec("1.2.3")), pb::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(BuildCode(Dec("0.0000000000001")), pb::ERROR_CODE_BAD_PLAN);
  Expr unconvertible = Str("abc");
  unconvertible.set_value_type(pb::VALUE_TYPE_BIGINT);
  EXPECT_EQ(BuildCode(unconvertible), pb::ERROR_CODE_BAD_PLAN);
}

TEST(BuildExpressionTest, ReportsErrorsOfNestedChildren) {
  Expr e = Node(pb::EXPRESSION_KIND_ADD, pb::VALUE_TYPE_BIGINT, {Int(1), Col(5, pb::VALUE_TYPE_BIGINT)});
  EXPECT_EQ(BuildCode(e), pb::ERROR_CODE_BAD_PLAN);
}

TEST(BuildExpressionTest, RejectsExcessiveNesting) {
  Expr e = Int(1);
  for (int i = 0; i < 300; ++i) e = Node(pb::EXPRESSION_KIND_NEGATE, pb::VALUE_TYPE_BIGINT, {e});
  EXPECT_EQ(BuildCode(e), pb::ERROR_CODE_BAD_PLAN);
}

TEST(LeafExpressionTest, ReadsColumnsAndParameters) {
  Harness h;
  h.row = {Value::Integer(7), Value::Varchar("abc")};
  h.params = {Value::BigInt(42)};
  EXPECT_EQ(h.Ok(Col(0, pb::VALUE_TYPE_INTEGER)).int_value(), 7);
  EXPECT_EQ(h.Ok(Col(1, pb::VALUE_TYPE_VARCHAR)).string_value(), "abc");
  EXPECT_EQ(h.Ok(Param(0, pb::VALUE_TYPE_BIGINT)).int_value(), 42);
}

TEST(LeafExpressionTest, RejectsMissingParameterAtEval) {
  Harness h;
  h.params = {Value::BigInt(1)};
  Result<std::unique_ptr<Expression>> e = h.Build(Param(0, pb::VALUE_TYPE_BIGINT));
  ASSERT_TRUE(e.ok());
  EvalContext ctx = h.Context();
  ctx.param_count = 0;
  Value out;
  EXPECT_EQ(e.value()->Eval(ctx, &out).code(), pb::ERROR_CODE_BAD_PARAMETER);
}

TEST(LeafExpressionTest, ConstantsOfEveryType) {
  Harness h;
  EXPECT_EQ(h.Ok(Int(-5, pb::VALUE_TYPE_TINYINT)).int_value(), -5);
  EXPECT_EQ(h.Ok(Int(-5, pb::VALUE_TYPE_TINYINT)).type(), ValueType::kTinyInt);
  EXPECT_EQ(h.Ok(Flt(2.5)).float_value(), 2.5);
  EXPECT_EQ(h.Ok(Dec("-12.5")).decimal_value(), static_cast<int128>(-12'500'000'000'000LL));
  EXPECT_EQ(h.Ok(Str("héllo")).string_value(), "héllo");
  EXPECT_EQ(h.Ok(Bin(std::string("\0\1", 2))).string_value(), std::string_view("\0\1", 2));
  EXPECT_EQ(h.Ok(Ts(123)).type(), ValueType::kTimestamp);
  EXPECT_TRUE(h.Ok(Bool(true)).bool_value());
  const Value null = h.Ok(Null(pb::VALUE_TYPE_VARCHAR));
  EXPECT_TRUE(null.is_null());
  EXPECT_EQ(null.type(), ValueType::kVarchar);
}

TEST(LeafExpressionTest, ConstantOwnsItsBytes) {
  Harness h;
  std::unique_ptr<Expression> e;
  {
    Expr proto = Str(std::string(100, 'x'));
    Result<std::unique_ptr<Expression>> r = h.Build(proto);
    ASSERT_TRUE(r.ok());
    e = std::move(r.value());
  }  // the proto (and its string) is gone
  Value out;
  ASSERT_TRUE(e->Eval(h.Context(), &out).ok());
  EXPECT_EQ(out.string_value(), std::string(100, 'x'));
}

TEST(LeafExpressionTest, ConstantWidensToDeclaredType) {
  Harness h;
  Expr e = Int(5, pb::VALUE_TYPE_INTEGER);
  e.set_value_type(pb::VALUE_TYPE_DECIMAL);
  const Value v = h.Ok(e);
  EXPECT_EQ(v.type(), ValueType::kDecimal);
  EXPECT_EQ(v.decimal_value(), static_cast<int128>(5) * kDecimalScaleFactor);
  Expr untyped = Int(5, pb::VALUE_TYPE_SMALLINT);
  untyped.set_value_type(pb::VALUE_TYPE_UNSPECIFIED);
  EXPECT_EQ(h.Ok(untyped).type(), ValueType::kSmallInt);
}

TEST(LeafExpressionTest, ConstantWithoutTypeTakesDeclaredType) {
  Harness h;
  Expr e = Int(9, pb::VALUE_TYPE_INTEGER);
  e.mutable_constant()->set_type(pb::VALUE_TYPE_UNSPECIFIED);
  const Value v = h.Ok(e);
  EXPECT_EQ(v.type(), ValueType::kInteger);
  EXPECT_EQ(v.int_value(), 9);
}

TEST(BuildExpressionTest, NamesKindAndArityInMessages) {
  EXPECT_EQ(BuildMessage(Node(pb::EXPRESSION_KIND_ADD, pb::VALUE_TYPE_BIGINT, {Int(1)})),
            "ADD takes 2 children, got 1");
  EXPECT_EQ(BuildMessage(Node(pb::EXPRESSION_KIND_LIKE, pb::VALUE_TYPE_BOOLEAN, {Str("a")})),
            "LIKE takes 2 to 3 children, got 1");
  EXPECT_EQ(BuildMessage(Node(pb::EXPRESSION_KIND_AND, pb::VALUE_TYPE_BOOLEAN, {Bool(true)})),
            "AND takes 2 or more children, got 1");
}

TEST(EvalPredicateTest, OnlyTruePasses) {
  Harness h;
  for (const auto& [e, expected] : std::vector<std::pair<Expr, bool>>{
           {Bool(true), true}, {Bool(false), false}, {NullBool(), false}}) {
    Result<std::unique_ptr<Expression>> built = h.Build(e);
    ASSERT_TRUE(built.ok());
    bool passes = !expected;
    ASSERT_TRUE(EvalPredicate(*built.value(), h.Context(), &passes).ok());
    EXPECT_EQ(passes, expected);
  }
}

TEST(EvalPredicateTest, PropagatesErrors) {
  Harness h;
  Expr e = Node(pb::EXPRESSION_KIND_EQUAL, pb::VALUE_TYPE_BOOLEAN,
                {Node(pb::EXPRESSION_KIND_DIVIDE, pb::VALUE_TYPE_BIGINT, {Int(1), Int(0)}), Int(1)});
  Result<std::unique_ptr<Expression>> built = h.Build(e);
  ASSERT_TRUE(built.ok());
  bool passes;
  EXPECT_EQ(EvalPredicate(*built.value(), h.Context(), &passes).code(), pb::ERROR_CODE_DIVISION_BY_ZERO);
}

Expr Case(pb::ValueType type, std::initializer_list<Expr> children, bool has_else) {
  Expr e = Node(pb::EXPRESSION_KIND_CASE, type, children);
  e.set_has_else(has_else);
  return e;
}

TEST(CaseExpressionTest, PicksFirstTrueCondition) {
  Harness h;
  const auto kBig = pb::VALUE_TYPE_BIGINT;
  EXPECT_EQ(h.Ok(Case(kBig, {Bool(false), Int(1), Bool(true), Int(2), Bool(true), Int(3)}, false)).int_value(), 2);
  EXPECT_EQ(h.Ok(Case(kBig, {NullBool(), Int(1), Bool(true), Int(2)}, false)).int_value(), 2);
}

TEST(CaseExpressionTest, FallsBackToElseOrNull) {
  Harness h;
  const auto kBig = pb::VALUE_TYPE_BIGINT;
  EXPECT_EQ(h.Ok(Case(kBig, {Bool(false), Int(1), Int(9)}, true)).int_value(), 9);
  const Value none = h.Ok(Case(kBig, {NullBool(), Int(1)}, false));
  EXPECT_TRUE(none.is_null());
  EXPECT_EQ(none.type(), ValueType::kBigInt);
}

TEST(CaseExpressionTest, EvaluatesOnlyTheChosenBranchAndWidens) {
  Harness h;
  Expr boom = Node(pb::EXPRESSION_KIND_DIVIDE, pb::VALUE_TYPE_BIGINT, {Int(1), Int(0)});
  const Value v = h.Ok(Case(pb::VALUE_TYPE_BIGINT, {Bool(true), Int(4, pb::VALUE_TYPE_INTEGER), boom}, true));
  EXPECT_EQ(v.type(), ValueType::kBigInt);
  EXPECT_EQ(v.int_value(), 4);
}

TEST(CastExpressionTest, ConvertsBetweenTypes) {
  Harness h;
  EXPECT_EQ(h.Ok(Cast(pb::VALUE_TYPE_INTEGER, Flt(2.9))).int_value(), 2);
  EXPECT_EQ(h.Ok(Cast(pb::VALUE_TYPE_BIGINT, Str(" 42 "))).int_value(), 42);
  EXPECT_EQ(h.Ok(Cast(pb::VALUE_TYPE_VARCHAR, Int(-17))).string_value(), "-17");
  EXPECT_EQ(h.Ok(Cast(pb::VALUE_TYPE_DECIMAL, Str("1.25"))).decimal_value(),
            static_cast<int128>(1'250'000'000'000LL));
  EXPECT_EQ(h.Ok(Cast(pb::VALUE_TYPE_TIMESTAMP, Str("1970-01-01 00:00:01"))).int_value(), 1'000'000);
  EXPECT_TRUE(h.Ok(Cast(pb::VALUE_TYPE_INTEGER, Null(pb::VALUE_TYPE_VARCHAR))).is_null());
}

TEST(CastExpressionTest, RejectsOverLongStrings) {
  Harness h;
  EXPECT_EQ(h.Code(Cast(pb::VALUE_TYPE_VARCHAR, Str("abcdef"), 3)), pb::ERROR_CODE_VALUE_TOO_LONG);
  EXPECT_EQ(h.Code(Cast(pb::VALUE_TYPE_VARCHAR, Int(12345), 3)), pb::ERROR_CODE_VALUE_TOO_LONG);
  EXPECT_EQ(h.Ok(Cast(pb::VALUE_TYPE_VARCHAR, Str("äöü"), 3)).string_value(), "äöü");  // characters, not bytes
}

TEST(CastExpressionTest, RejectsBadTextAndOutOfRange) {
  Harness h;
  EXPECT_EQ(h.Code(Cast(pb::VALUE_TYPE_INTEGER, Str("12x"))), pb::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_EQ(h.Code(Cast(pb::VALUE_TYPE_DECIMAL, Str("abc"))), pb::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_EQ(h.Code(Cast(pb::VALUE_TYPE_TIMESTAMP, Str("yesterday"))), pb::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_EQ(h.Code(Cast(pb::VALUE_TYPE_TINYINT, Int(200))), pb::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
}

TEST(CoalesceTest, ReturnsFirstNonNull) {
  Harness h;
  const auto kBig = pb::VALUE_TYPE_BIGINT;
  const Value v =
      h.Ok(Fn(pb::FUNCTION_COALESCE, kBig, {Null(kBig), Int(3, pb::VALUE_TYPE_INTEGER), Int(4)}));
  EXPECT_EQ(v.int_value(), 3);
  EXPECT_EQ(v.type(), ValueType::kBigInt);
  EXPECT_TRUE(h.Ok(Fn(pb::FUNCTION_COALESCE, kBig, {Null(kBig), Null(kBig)})).is_null());
}

TEST(NullIfTest, NullsEqualValues) {
  Harness h;
  const auto kBig = pb::VALUE_TYPE_BIGINT;
  EXPECT_TRUE(h.Ok(Fn(pb::FUNCTION_NULLIF, kBig, {Int(3), Int(3, pb::VALUE_TYPE_INTEGER)})).is_null());
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_NULLIF, kBig, {Int(3), Int(4)})).int_value(), 3);
  EXPECT_EQ(h.Ok(Fn(pb::FUNCTION_NULLIF, kBig, {Int(3), Null(kBig)})).int_value(), 3);
  EXPECT_TRUE(h.Ok(Fn(pb::FUNCTION_NULLIF, kBig, {Null(kBig), Int(3)})).is_null());
  EXPECT_TRUE(
      h.Ok(Fn(pb::FUNCTION_NULLIF, pb::VALUE_TYPE_VARCHAR, {Str("a"), Str("a")})).is_null());
}

}  // namespace
}  // namespace partita
