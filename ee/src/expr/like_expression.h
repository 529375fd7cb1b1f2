// LikeExpression: children[0] LIKE children[1] [ESCAPE children[2]].
//
// `%` matches any run of characters, `_` exactly one character (UTF-8 code
// point); every other character matches itself, bytewise (case-sensitive).
// The escape, when given, must be exactly one character, and inside the
// pattern it must be followed by `%`, `_` or itself; anything else (including
// a pattern ending in the escape) is SQL_ERROR. NULL in any operand gives NULL.
//
// Constant patterns (children[1], and children[2] if present, are CONSTANTs)
// are analysed once when the node is built: '' and 'abc' compare for
// equality, 'abc%' is a prefix memcmp, '%abc' a suffix memcmp, '%abc%' a
// substring search and '%' matches any non-NULL text. Other patterns run the
// general matcher (linear in practice; backtracks only to the last `%`).
//
// Ownership: owns its operands and the analysed pattern. Thread model:
// immutable; partition-confined.
#ifndef PARTITA_EXPR_LIKE_EXPRESSION_H_
#define PARTITA_EXPR_LIKE_EXPRESSION_H_

#include <memory>
#include <string>

#include "expr/expression.h"
#include "expr/expression_util.h"

namespace partita::expr {

class LikeExpression final : public Expression {
 public:
  // REQUIRES: children.size() is 2 or 3. `constant_pattern` says whether
  // children[1] (and children[2], if present) are CONSTANTs.
  LikeExpression(ExpressionList children, bool constant_pattern);

  Status Eval(const EvalContext& ctx, Value* out) const override;

 private:
  // How a constant pattern is matched.
  enum class Shape { kDynamic, kNull, kInvalid, kExact, kPrefix, kSuffix, kContains, kAny, kGeneral };

  // Analyses the constant pattern into shape_, literal_, pattern_, escape_.
  void Precompile();
  // Returns true iff `text` matches the precompiled pattern.
  bool MatchPrecompiled(std::string_view text) const;

  ExpressionList children_;
  Shape shape_ = Shape::kDynamic;
  std::string literal_;  // unescaped text for the fast shapes
  std::string pattern_;  // the raw constant pattern (kGeneral)
  std::string escape_;   // the constant escape, empty if none
  Status invalid_;       // the error of a kInvalid pattern
};

}  // namespace partita::expr

#endif  // PARTITA_EXPR_LIKE_EXPRESSION_H_
