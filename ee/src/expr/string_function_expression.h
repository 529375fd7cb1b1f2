// StringFunctionExpression: the text functions of proto::Function.
//   CHAR_LENGTH(s)      characters of a VARCHAR (UTF-8 code points), bytes of
//                       a VARBINARY
//   OCTET_LENGTH(s)     bytes
//   SUBSTRING(s, start[, length])  characters start .. start+length-1,
//                       1-based, clipped to the string (start may be <= 0 as
//                       in the SQL standard); bytes for VARBINARY; a negative
//                       length is SQL_ERROR
//   UPPER(s), LOWER(s)  ASCII letters only; other characters (including
//                       non-ASCII letters) are kept as they are
//   TRIM, LTRIM, RTRIM  remove spaces (U+0020 only) from both/left/right
//   CONCAT(a, ...)      NULL if any argument is NULL; non-text arguments are
//                       formatted as by CAST(x AS VARCHAR)
// A NULL argument gives NULL. Results of SUBSTRING and the trims are views of
// their argument (they live as long as it does); UPPER, LOWER and CONCAT
// allocate in ctx.arena.
//
// Ownership: owns its arguments. Thread model: immutable; partition-confined.
#ifndef PARTITA_EXPR_STRING_FUNCTION_EXPRESSION_H_
#define PARTITA_EXPR_STRING_FUNCTION_EXPRESSION_H_

#include <cstddef>

#include "expr/expression.h"
#include "expr/expression_util.h"

namespace partita::expr {

class StringFunctionExpression final : public Expression {
 public:
  // The most CONCAT arguments one node takes (BuildFunction nests longer
  // lists), so Eval keeps them on the stack.
  static constexpr size_t kMaxConcatArgs = 16;

  // REQUIRES: `fn` is a text function with a valid argument count.
  StringFunctionExpression(ValueType type, proto::Function fn, ExpressionList args);
  Status Eval(const EvalContext& ctx, Value* out) const override;

 private:
  Status EvalConcat(const EvalContext& ctx, Value* out) const;
  Status EvalSubstring(const Value& s, const EvalContext& ctx, Value* out) const;
  Status EvalCaseMap(const Value& s, Arena* arena, Value* out) const;

  proto::Function fn_;
  ExpressionList args_;
};

}  // namespace partita::expr

#endif  // PARTITA_EXPR_STRING_FUNCTION_EXPRESSION_H_
