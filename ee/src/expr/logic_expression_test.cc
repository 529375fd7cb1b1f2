// Tests of comparisons, AND/OR/NOT, IS [NOT] NULL, IN and BETWEEN, with the
// truth tables of SQL three-valued logic.
#include "expr/logic_expression.h"

#include <gtest/gtest.h>

#include "errors.pb.h"
#include "expr/expression_test_helpers.h"
#include "plan.pb.h"

namespace partita {
namespace {

using namespace testing_expr;  // NOLINT: test vocabulary

constexpr auto kBool = pb::VALUE_TYPE_BOOLEAN;
constexpr auto kBig = pb::VALUE_TYPE_BIGINT;

Expr Cmp(pb::ExpressionKind kind, Expr a, Expr b) { return Node(kind, kBool, {a, b}); }

// TRUE, FALSE, NULL as constants, indexed 0..2.
Expr TruthConst(int i) { return i == 0 ? Bool(true) : i == 1 ? Bool(false) : NullBool(); }

TEST(ComparisonExpressionTest, ComparesIntegers) {
  Harness h;
  EXPECT_EQ(TruthText(h.Ok(Cmp(pb::EXPRESSION_KIND_EQUAL, Int(1), Int(1)))), "TRUE");
  EXPECT_EQ(TruthText(h.Ok(Cmp(pb::EXPRESSION_KIND_NOT_EQUAL, Int(1), Int(1)))), "FALSE");
  EXPECT_EQ(TruthText(h.Ok(Cmp(pb::EXPRESSION_KIND_LESS, Int(1), Int(2)))), "TRUE");
  EXPECT_EQ(TruthText(h.Ok(Cmp(pb::EXPRESSION_KIND_LESS_EQUAL, Int(2), Int(2)))), "TRUE");
  EXPECT_EQ(TruthText(h.Ok(Cmp(pb::EXPRESSION_KIND_GREATER, Int(2), Int(2)))), "FALSE");
  EXPECT_EQ(TruthText(h.Ok(Cmp(pb::EXPRESSION_KIND_GREATER_EQUAL, Int(3), Int(2)))), "TRUE");
  EXPECT_EQ(h.Ok(Cmp(pb::EXPRESSION_KIND_EQUAL, Int(1), Int(1))).type(), ValueType::kBoolean);
}

TEST(ComparisonExpressionTest, ComparesAcrossNumericTypes) {
  Harness h;
  EXPECT_EQ(TruthText(h.Ok(Cmp(pb::EXPRESSION_KIND_EQUAL, Int(2, pb::VALUE_TYPE_TINYINT), Dec("2.0")))), "TRUE");
  EXPECT_EQ(TruthText(h.Ok(Cmp(pb::EXPRESSION_KIND_LESS, Int(2), Flt(2.5)))), "TRUE");
  EXPECT_EQ(TruthText(h.Ok(Cmp(pb::EXPRESSION_KIND_GREATER, Dec("2.5"), Int(2)))), "TRUE");
  EXPECT_EQ(TruthText(h.Ok(Cmp(pb::EXPRESSION_KIND_EQUAL, Ts(5), Int(5)))), "TRUE");
}

TEST(ComparisonExpressionTest, ComparesStringsBytewise) {
  Harness h;
  EXPECT_EQ(TruthText(h.Ok(Cmp(pb::EXPRESSION_KIND_LESS, Str("abc"), Str("abd")))), "TRUE");
  EXPECT_EQ(TruthText(h.Ok(Cmp(pb::EXPRESSION_KIND_LESS, Str("ab"), Str("abc")))), "TRUE");
  EXPECT_EQ(TruthText(h.Ok(Cmp(pb::EXPRESSION_KIND_EQUAL, Str(""), Str("")))), "TRUE");
  EXPECT_EQ(TruthText(h.Ok(Cmp(pb::EXPRESSION_KIND_EQUAL, Bin("\x01"), Bin("\x01")))), "TRUE");
}

TEST(ComparisonExpressionTest, ComparesTimestampWithText) {
  Harness h;
  EXPECT_EQ(TruthText(h.Ok(Cmp(pb::EXPRESSION_KIND_EQUAL, Ts(86'400'000'000LL), Str("1970-01-02")))), "TRUE");
  EXPECT_EQ(h.Code(Cmp(pb::EXPRESSION_KIND_EQUAL, Ts(0), Str("soon"))), pb::ERROR_CODE_TYPE_MISMATCH);
}

TEST(ComparisonExpressionTest, YieldsNullForNullOperands) {
  Harness h;
  for (auto kind : {pb::EXPRESSION_KIND_EQUAL, pb::EXPRESSION_KIND_NOT_EQUAL, pb::EXPRESSION_KIND_LESS,
                    pb::EXPRESSION_KIND_LESS_EQUAL, pb::EXPRESSION_KIND_GREATER, pb::EXPRESSION_KIND_GREATER_EQUAL}) {
    const Value v = h.Ok(Cmp(kind, Int(1), Null(kBig)));
    EXPECT_TRUE(v.is_null());
    EXPECT_EQ(v.type(), ValueType::kBoolean);
    EXPECT_TRUE(h.Ok(Cmp(kind, Null(kBig), Int(1))).is_null());
    EXPECT_TRUE(h.Ok(Cmp(kind, Null(kBig), Null(kBig))).is_null());
  }
}

TEST(ComparisonExpressionTest, RejectsIncomparableTypes) {
  Harness h;
  EXPECT_EQ(h.Code(Cmp(pb::EXPRESSION_KIND_EQUAL, Str("1"), Int(1))), pb::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_EQ(h.Code(Cmp(pb::EXPRESSION_KIND_EQUAL, Int(1), Str("1"))), pb::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_EQ(h.Code(Cmp(pb::EXPRESSION_KIND_EQUAL, Str("1"), Bin("1"))), pb::ERROR_CODE_TYPE_MISMATCH);
}

TEST(LogicExpressionTest, AndTruthTable) {
  Harness h;
  // Rows and columns: TRUE, FALSE, NULL.
  const char* expected[3][3] = {{"TRUE", "FALSE", "NULL"}, {"FALSE", "FALSE", "FALSE"}, {"NULL", "FALSE", "NULL"}};
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      EXPECT_EQ(TruthText(h.Ok(Node(pb::EXPRESSION_KIND_AND, kBool, {TruthConst(a), TruthConst(b)}))), expected[a][b])
          << a << " AND " << b;
    }
  }
}

TEST(LogicExpressionTest, OrTruthTable) {
  Harness h;
  const char* expected[3][3] = {{"TRUE", "TRUE", "TRUE"}, {"TRUE", "FALSE", "NULL"}, {"TRUE", "NULL", "NULL"}};
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      EXPECT_EQ(TruthText(h.Ok(Node(pb::EXPRESSION_KIND_OR, kBool, {TruthConst(a), TruthConst(b)}))), expected[a][b])
          << a << " OR " << b;
    }
  }
}

TEST(LogicExpressionTest, NotAndIsNullTruthTables) {
  Harness h;
  const char* kNot[3] = {"FALSE", "TRUE", "NULL"};
  const char* kIsNull[3] = {"FALSE", "FALSE", "TRUE"};
  const char* kIsNotNull[3] = {"TRUE", "TRUE", "FALSE"};
  for (int a = 0; a < 3; ++a) {
    EXPECT_EQ(TruthText(h.Ok(Node(pb::EXPRESSION_KIND_NOT, kBool, {TruthConst(a)}))), kNot[a]);
    EXPECT_EQ(TruthText(h.Ok(Node(pb::EXPRESSION_KIND_IS_NULL, kBool, {TruthConst(a)}))), kIsNull[a]);
    EXPECT_EQ(TruthText(h.Ok(Node(pb::EXPRESSION_KIND_IS_NOT_NULL, kBool, {TruthConst(a)}))), kIsNotNull[a]);
  }
  EXPECT_EQ(TruthText(h.Ok(Node(pb::EXPRESSION_KIND_IS_NULL, kBool, {Null(pb::VALUE_TYPE_VARCHAR)}))), "TRUE");
  EXPECT_EQ(TruthText(h.Ok(Node(pb::EXPRESSION_KIND_IS_NOT_NULL, kBool, {Str("")}))), "TRUE");
}

TEST(LogicExpressionTest, NaryAndOrShortCircuit) {
  Harness h;
  Expr boom = Cmp(pb::EXPRESSION_KIND_EQUAL, Node(pb::EXPRESSION_KIND_DIVIDE, kBig, {Int(1), Int(0)}), Int(1));
  EXPECT_EQ(TruthText(h.Ok(Node(pb::EXPRESSION_KIND_AND, kBool, {Bool(true), NullBool(), Bool(false), boom}))),
            "FALSE");
  EXPECT_EQ(TruthText(h.Ok(Node(pb::EXPRESSION_KIND_OR, kBool, {Bool(false), NullBool(), Bool(true), boom}))),
            "TRUE");
  EXPECT_EQ(TruthText(h.Ok(Node(pb::EXPRESSION_KIND_AND, kBool, {Bool(true), Bool(true), NullBool()}))), "NULL");
  EXPECT_EQ(h.Code(Node(pb::EXPRESSION_KIND_AND, kBool, {Bool(true), boom})), pb::ERROR_CODE_DIVISION_BY_ZERO);
}

Expr In(std::initializer_list<Expr> children) { return Node(pb::EXPRESSION_KIND_IN_LIST, kBool, children); }

TEST(InListExpressionTest, MatchesAndHandlesNulls) {
  Harness h;
  EXPECT_EQ(TruthText(h.Ok(In({Int(2), Int(1), Int(2), Int(3)}))), "TRUE");
  EXPECT_EQ(TruthText(h.Ok(In({Int(5), Int(1), Int(2)}))), "FALSE");
  EXPECT_EQ(TruthText(h.Ok(In({Int(5), Int(1), Null(kBig)}))), "NULL");
  EXPECT_EQ(TruthText(h.Ok(In({Int(1), Null(kBig), Int(1)}))), "TRUE");
  EXPECT_EQ(TruthText(h.Ok(In({Null(kBig), Int(1)}))), "NULL");
  EXPECT_EQ(TruthText(h.Ok(In({Str("b"), Str("a"), Str("b")}))), "TRUE");
  EXPECT_EQ(TruthText(h.Ok(In({Int(2, pb::VALUE_TYPE_INTEGER), Dec("2"), Flt(3)}))), "TRUE");
}

// The hashed form of a constant list answers exactly as the scan does.
TEST(InListExpressionTest, ProbesAConstantListThroughAHashSet) {
  Harness h;
  h.row = {Value::Integer(7)};
  const Expr col = Col(0, pb::VALUE_TYPE_INTEGER);
  Result<std::unique_ptr<partita::Expression>> built = h.Build(In({col, Int(1), Dec("7"), Flt(9)}));
  ASSERT_TRUE(built.ok()) << built.status().ToString();
  EXPECT_TRUE(dynamic_cast<const expr::InListExpression&>(*built.value()).hashed());
  EXPECT_EQ(TruthText(h.Ok(In({col, Int(1), Dec("7"), Flt(9)}))), "TRUE");
  EXPECT_EQ(TruthText(h.Ok(In({col, Int(1), Int(2)}))), "FALSE");
  EXPECT_EQ(TruthText(h.Ok(In({col, Int(1), Null(kBig)}))), "NULL");
  h.row = {Value::Null(ValueType::kInteger)};
  EXPECT_EQ(TruthText(h.Ok(In({col, Int(1), Int(2)}))), "NULL");
}

// A list mixing text and numbers keeps the scan, and its TYPE_MISMATCH.
TEST(InListExpressionTest, ScansAListOfOtherFamiliesAndKeepsItsErrors) {
  Harness h;
  h.row = {Value::Integer(7)};
  const Expr in = In({Col(0, pb::VALUE_TYPE_INTEGER), Str("a"), Int(7)});
  Result<std::unique_ptr<partita::Expression>> built = h.Build(in);
  ASSERT_TRUE(built.ok()) << built.status().ToString();
  EXPECT_FALSE(dynamic_cast<const expr::InListExpression&>(*built.value()).hashed());
  EXPECT_EQ(h.Code(in), pb::ERROR_CODE_TYPE_MISMATCH);
}

TEST(InListExpressionTest, ReadsParameters) {
  Harness h;
  h.row = {Value::Integer(3)};
  h.params = {Value::BigInt(4), Value::BigInt(3)};
  EXPECT_EQ(TruthText(h.Ok(In({Col(0, pb::VALUE_TYPE_INTEGER), Param(0, kBig), Param(1, kBig)}))), "TRUE");
  h.row = {Value::Null(ValueType::kInteger)};
  EXPECT_EQ(TruthText(h.Ok(In({Col(0, pb::VALUE_TYPE_INTEGER), Param(0, kBig), Param(1, kBig)}))), "NULL");
}

Expr Between(Expr x, Expr lo, Expr hi) { return Node(pb::EXPRESSION_KIND_BETWEEN, kBool, {x, lo, hi}); }

TEST(BetweenExpressionTest, IsInclusive) {
  Harness h;
  EXPECT_EQ(TruthText(h.Ok(Between(Int(1), Int(1), Int(3)))), "TRUE");
  EXPECT_EQ(TruthText(h.Ok(Between(Int(3), Int(1), Int(3)))), "TRUE");
  EXPECT_EQ(TruthText(h.Ok(Between(Int(0), Int(1), Int(3)))), "FALSE");
  EXPECT_EQ(TruthText(h.Ok(Between(Int(4), Int(1), Int(3)))), "FALSE");
  EXPECT_EQ(TruthText(h.Ok(Between(Str("b"), Str("a"), Str("c")))), "TRUE");
}

TEST(BetweenExpressionTest, FollowsThreeValuedLogic) {
  Harness h;
  EXPECT_EQ(TruthText(h.Ok(Between(Null(kBig), Int(1), Int(3)))), "NULL");
  EXPECT_EQ(TruthText(h.Ok(Between(Int(2), Null(kBig), Int(3)))), "NULL");
  EXPECT_EQ(TruthText(h.Ok(Between(Int(2), Int(1), Null(kBig)))), "NULL");
  EXPECT_EQ(TruthText(h.Ok(Between(Int(0), Int(1), Null(kBig)))), "FALSE");  // 0 >= 1 is FALSE
  EXPECT_EQ(TruthText(h.Ok(Between(Int(5), Null(kBig), Int(3)))), "FALSE");  // 5 <= 3 is FALSE
}

}  // namespace
}  // namespace partita
