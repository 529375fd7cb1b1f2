// Helpers shared by the expression node classes: child lists, three-valued
// truth values, type-checked comparison and the implicit conversions an
// operator applies to its operands. Internal to ee/src/expr.
// Thread model: stateless functions.
#ifndef PARTITA_EXPR_EXPRESSION_UTIL_H_
#define PARTITA_EXPR_EXPRESSION_UTIL_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/arena.h"
#include "expr/expression.h"
#include "partita/status.h"
#include "partita/value.h"

namespace partita::expr {

// The children of a node, owned by it.
using ExpressionList = std::vector<std::unique_ptr<Expression>>;

// Status(BAD_PLAN, message).
Status BadPlan(std::string message);

// SQL truth value of a BOOLEAN (or NULL) value.
enum class Truth { kFalse, kTrue, kUnknown };

inline Truth TruthOf(const Value& v) {
  if (v.is_null()) return Truth::kUnknown;
  return v.bool_value() ? Truth::kTrue : Truth::kFalse;
}

inline Value TruthValue(Truth t) {
  if (t == Truth::kUnknown) return Value::Null(ValueType::kBoolean);
  return Value::Boolean(t == Truth::kTrue);
}

// Slow path of CompareNonNull: mixed families, TIMESTAMP against text, and
// incomparable pairs (TYPE_MISMATCH naming both values).
Status CompareMixed(const Value& a, const Value& b, int* result);

// Three-way comparison of two non-NULL values: `*result` <0, 0, >0. Numbers
// compare by value across types, strings bytewise, TIMESTAMP against VARCHAR
// by parsing the text. Any other pair is TYPE_MISMATCH.
inline Status CompareNonNull(const Value& a, const Value& b, int* result) {
  if (IsInt64Backed(a.type()) && IsInt64Backed(b.type())) {
    const int64_t x = a.int_value(), y = b.int_value();
    *result = (x > y) - (x < y);
    return Status::OK();
  }
  return CompareMixed(a, b, result);
}

// Reads an integer operand: int64-backed values as they are, FLOAT and
// DECIMAL only when whole (kExact rules). `what` names the operand in errors.
Status IntOperand(const Value& v, std::string_view what, int64_t* out);

// Checks that `x` fits `type` (an integer type, or TIMESTAMP's year 1-9999
// range). Returns NUMERIC_OUT_OF_RANGE "<TYPE> overflow in <expression>"
// otherwise, `describe` producing the expression text only on error.
template <typename Describe>
Status CheckIntResult(int64_t x, ValueType type, Describe describe);

// Converts a non-NULL or NULL `v` to the node's result `type` under kExact
// rules (the compiler only asks for widenings); same-type values pass through.
Status CoerceToType(const Value& v, ValueType type, Arena* arena, Value* out);

// Builds the NUMERIC_OUT_OF_RANGE status for CheckIntResult.
Status IntOverflow(ValueType type, const std::string& expression);

// Bounds of TIMESTAMP and integer types as int64.
int64_t ResultMin(ValueType type);
int64_t ResultMax(ValueType type);

template <typename Describe>
Status CheckIntResult(int64_t x, ValueType type, Describe describe) {
  if (x < ResultMin(type) || x > ResultMax(type)) return IntOverflow(type, describe());
  return Status::OK();
}

}  // namespace partita::expr

#endif  // PARTITA_EXPR_EXPRESSION_UTIL_H_
