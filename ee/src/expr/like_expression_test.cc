// Tests of LIKE: wildcards, escapes, NULLs, constant-pattern fast paths and
// the general matcher with patterns computed per row.
#include "expr/like_expression.h"

#include <gtest/gtest.h>

#include "errors.pb.h"
#include "expr/expression_test_helpers.h"
#include "plan.pb.h"

namespace partita {
namespace {

using namespace testing_expr;  // NOLINT: test vocabulary

constexpr auto kText = pb::VALUE_TYPE_VARCHAR;

Expr Like(Expr text, Expr pattern) { return Node(pb::EXPRESSION_KIND_LIKE, pb::VALUE_TYPE_BOOLEAN, {text, pattern}); }
Expr Like(Expr text, Expr pattern, Expr escape) {
  return Node(pb::EXPRESSION_KIND_LIKE, pb::VALUE_TYPE_BOOLEAN, {text, pattern, escape});
}

// Evaluates `text LIKE pattern [ESCAPE escape]` twice: with a constant
// pattern (precompiled) and with the pattern as a parameter (general path),
// and checks both agree.
std::string Match(const std::string& text, const std::string& pattern, const char* escape = nullptr) {
  Harness h;
  h.row = {Value::Varchar(text)};
  h.params = {Value::Varchar(pattern), Value::Varchar(escape ? escape : "")};
  const Expr constant = escape ? Like(Col(0, kText), Str(pattern), Str(escape)) : Like(Col(0, kText), Str(pattern));
  const Expr dynamic = escape ? Like(Col(0, kText), Param(0, kText), Param(1, kText))
                              : Like(Col(0, kText), Param(0, kText));
  const Value a = h.Ok(constant);
  const Value b = h.Ok(dynamic);
  EXPECT_EQ(TruthText(a), TruthText(b)) << "'" << text << "' LIKE '" << pattern << "'";
  return TruthText(a);
}

TEST(LikeExpressionTest, MatchesExactText) {
  EXPECT_EQ(Match("abc", "abc"), "TRUE");
  EXPECT_EQ(Match("abc", "abd"), "FALSE");
  EXPECT_EQ(Match("abc", "ab"), "FALSE");
  EXPECT_EQ(Match("", ""), "TRUE");
  EXPECT_EQ(Match("a", ""), "FALSE");
  EXPECT_EQ(Match("ABC", "abc"), "FALSE");  // case-sensitive
}

TEST(LikeExpressionTest, UsesPrefixSuffixAndContainsFastPaths) {
  EXPECT_EQ(Match("abcdef", "abc%"), "TRUE");
  EXPECT_EQ(Match("abc", "abc%"), "TRUE");
  EXPECT_EQ(Match("xabc", "abc%"), "FALSE");
  EXPECT_EQ(Match("ab", "abc%"), "FALSE");
  EXPECT_EQ(Match("xxabc", "%abc"), "TRUE");
  EXPECT_EQ(Match("abcx", "%abc"), "FALSE");
  EXPECT_EQ(Match("xxabcyy", "%abc%"), "TRUE");
  EXPECT_EQ(Match("xxabyy", "%abc%"), "FALSE");
  EXPECT_EQ(Match("anything", "%"), "TRUE");
  EXPECT_EQ(Match("", "%"), "TRUE");
  EXPECT_EQ(Match("", "%%"), "TRUE");
  EXPECT_EQ(Match("abc", "a%%c"), "TRUE");
}

TEST(LikeExpressionTest, MatchesUnderscoreAsOneCharacter) {
  EXPECT_EQ(Match("abc", "a_c"), "TRUE");
  EXPECT_EQ(Match("ac", "a_c"), "FALSE");
  EXPECT_EQ(Match("abbc", "a_c"), "FALSE");
  EXPECT_EQ(Match("aéc", "a_c"), "TRUE");  // é is two bytes, one character
  EXPECT_EQ(Match("日本", "__"), "TRUE");
  EXPECT_EQ(Match("日本", "___"), "FALSE");
  EXPECT_EQ(Match("abc", "___"), "TRUE");
}

TEST(LikeExpressionTest, BacktracksAcrossPercent) {
  EXPECT_EQ(Match("abcabcabd", "%abd"), "TRUE");
  EXPECT_EQ(Match("abcabcabd", "a%b_"), "TRUE");
  EXPECT_EQ(Match("mississippi", "m%iss%ppi"), "TRUE");
  EXPECT_EQ(Match("mississippi", "m%iss%x%"), "FALSE");
  EXPECT_EQ(Match("aaa", "%a%a%a%"), "TRUE");
  EXPECT_EQ(Match("aa", "%a%a%a%"), "FALSE");
  EXPECT_EQ(Match("xéyéz", "%é_é%"), "TRUE");
  EXPECT_EQ(Match("ab", "_%_"), "TRUE");
  EXPECT_EQ(Match("a", "_%_"), "FALSE");
}

TEST(LikeExpressionTest, HonoursEscapes) {
  EXPECT_EQ(Match("100%", "100!%", "!"), "TRUE");
  EXPECT_EQ(Match("1000", "100!%", "!"), "FALSE");
  EXPECT_EQ(Match("a_b", "a!_b", "!"), "TRUE");
  EXPECT_EQ(Match("axb", "a!_b", "!"), "FALSE");
  EXPECT_EQ(Match("a!b", "a!!b", "!"), "TRUE");
  EXPECT_EQ(Match("50% off", "%!%%", "!"), "TRUE");
  EXPECT_EQ(Match("50 off", "%!%%", "!"), "FALSE");
  EXPECT_EQ(Match("a%", "a%%", "%"), "TRUE");  // the escape may be a wildcard character
  EXPECT_EQ(Match("a%b", "a§%b", "§"), "TRUE");  // a two-byte escape
}

TEST(LikeExpressionTest, RejectsBadEscapes) {
  Harness h;
  h.params = {Value::Varchar("a!b")};
  EXPECT_EQ(h.Code(Like(Str("ab"), Str("a!b"), Str("!"))), pb::ERROR_CODE_SQL_ERROR);   // escapes a letter
  EXPECT_EQ(h.Code(Like(Str("ab"), Str("ab!"), Str("!"))), pb::ERROR_CODE_SQL_ERROR);   // trailing escape
  EXPECT_EQ(h.Code(Like(Str("ab"), Str("ab"), Str("!!"))), pb::ERROR_CODE_SQL_ERROR);   // two characters
  EXPECT_EQ(h.Code(Like(Str("ab"), Str("ab"), Str(""))), pb::ERROR_CODE_SQL_ERROR);     // empty
  EXPECT_EQ(h.Code(Like(Str("ab"), Param(0, kText), Str("!"))), pb::ERROR_CODE_SQL_ERROR);
  // A NULL operand decides before the pattern is checked.
  EXPECT_TRUE(h.Ok(Like(Null(kText), Str("a!b"), Str("!"))).is_null());
}

TEST(LikeExpressionTest, YieldsNullForNullOperands) {
  Harness h;
  h.params = {Value::Null(ValueType::kVarchar)};
  EXPECT_TRUE(h.Ok(Like(Null(kText), Str("a%"))).is_null());
  EXPECT_TRUE(h.Ok(Like(Str("abc"), Null(kText))).is_null());
  EXPECT_TRUE(h.Ok(Like(Str("abc"), Str("a%"), Null(kText))).is_null());
  EXPECT_TRUE(h.Ok(Like(Str("abc"), Param(0, kText))).is_null());
}

TEST(LikeExpressionTest, RejectsNonTextOperands) {
  Harness h;
  EXPECT_EQ(h.Code(Like(Int(1), Str("1"))), pb::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_EQ(h.Code(Like(Str("1"), Int(1))), pb::ERROR_CODE_TYPE_MISMATCH);
}

TEST(LikeExpressionTest, EvaluatesPerRowWithConstantPattern) {
  Harness h;
  Result<std::unique_ptr<Expression>> e =
      BuildExpression(Like(Col(0, kText), Str("ab%")), ExpressionScope{1, 0});
  ASSERT_TRUE(e.ok());
  int matches = 0;
  for (const char* text : {"abc", "xab", "ab", "a", "abab"}) {
    h.row = {Value::Varchar(text)};
    bool passes = false;
    ASSERT_TRUE(EvalPredicate(*e.value(), h.Context(), &passes).ok());
    matches += passes;
  }
  EXPECT_EQ(matches, 3);
}

}  // namespace
}  // namespace partita
