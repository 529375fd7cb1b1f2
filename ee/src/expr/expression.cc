// BuildExpression: validates a proto::Expression and builds the node tree;
// EvalPredicate: WHERE semantics over a built tree.
#include "expr/expression.h"

#include <string>
#include <utility>

#include "expr/arithmetic_expression.h"
#include "expr/case_cast_expression.h"
#include "expr/column_parameter_constant.h"
#include "expr/comparison_expression.h"
#include "expr/expression_util.h"
#include "expr/function_expression.h"
#include "expr/like_expression.h"
#include "expr/logic_expression.h"
#include "plan.pb.h"

namespace partita {
namespace {

using expr::BadPlan;
using expr::ExpressionList;
using ExpressionPtr = std::unique_ptr<Expression>;

// Deeper trees are rejected: Eval recurses once per level.
constexpr int kMaxDepth = 256;
constexpr int kUnbounded = -1;

// "ADD" for EXPRESSION_KIND_ADD; the number for unknown kinds.
std::string KindName(int kind) {
  constexpr std::string_view kPrefix = "EXPRESSION_KIND_";
  const std::string& name = proto::ExpressionKind_Name(static_cast<proto::ExpressionKind>(kind));
  if (name.empty()) return "kind " + std::to_string(kind);
  return name.substr(name.rfind(kPrefix, 0) == 0 ? kPrefix.size() : 0);
}

struct KindRule {
  int min_children;
  int max_children;  // kUnbounded for n-ary kinds
  bool boolean_result;
};

// Returns false iff `kind` is not an expression kind this engine builds.
bool Rule(proto::ExpressionKind kind, KindRule* rule) {
  switch (kind) {
    case proto::EXPRESSION_KIND_COLUMN:
    case proto::EXPRESSION_KIND_PARAMETER:
    case proto::EXPRESSION_KIND_CONSTANT:
    case proto::EXPRESSION_KIND_OUTER_COLUMN: *rule = {0, 0, false}; return true;
    case proto::EXPRESSION_KIND_SUBQUERY: *rule = {0, kUnbounded, false}; return true;
    case proto::EXPRESSION_KIND_ADD:
    case proto::EXPRESSION_KIND_SUBTRACT:
    case proto::EXPRESSION_KIND_MULTIPLY:
    case proto::EXPRESSION_KIND_DIVIDE:
    case proto::EXPRESSION_KIND_MODULO: *rule = {2, 2, false}; return true;
    case proto::EXPRESSION_KIND_NEGATE:
    case proto::EXPRESSION_KIND_CAST: *rule = {1, 1, false}; return true;
    case proto::EXPRESSION_KIND_EQUAL:
    case proto::EXPRESSION_KIND_NOT_EQUAL:
    case proto::EXPRESSION_KIND_LESS:
    case proto::EXPRESSION_KIND_LESS_EQUAL:
    case proto::EXPRESSION_KIND_GREATER:
    case proto::EXPRESSION_KIND_GREATER_EQUAL: *rule = {2, 2, true}; return true;
    case proto::EXPRESSION_KIND_AND:
    case proto::EXPRESSION_KIND_OR:
    case proto::EXPRESSION_KIND_IN_LIST: *rule = {2, kUnbounded, true}; return true;
    case proto::EXPRESSION_KIND_NOT:
    case proto::EXPRESSION_KIND_IS_NULL:
    case proto::EXPRESSION_KIND_IS_NOT_NULL: *rule = {1, 1, true}; return true;
    case proto::EXPRESSION_KIND_LIKE: *rule = {2, 3, true}; return true;
    case proto::EXPRESSION_KIND_BETWEEN: *rule = {3, 3, true}; return true;
    case proto::EXPRESSION_KIND_CASE: *rule = {2, kUnbounded, false}; return true;
    case proto::EXPRESSION_KIND_FUNCTION: *rule = {0, kUnbounded, false}; return true;
    default: return false;
  }
}

// The declared result type; a CONSTANT may leave it to its value's type.
ValueType DeclaredType(const proto::Expression& e) {
  if (e.kind() == proto::EXPRESSION_KIND_CONSTANT && e.value_type() == proto::VALUE_TYPE_UNSPECIFIED) {
    return FromProto(e.constant().type());
  }
  return FromProto(e.value_type());
}

// Checks what the kind-independent rules cannot: result types and CASE shape.
Status CheckShape(const proto::Expression& e, const KindRule& rule, ValueType type, const std::string& kind) {
  const int n = e.children_size();
  if (n < rule.min_children || (rule.max_children != kUnbounded && n > rule.max_children)) {
    const std::string range = rule.max_children == kUnbounded ? std::to_string(rule.min_children) + " or more"
                              : rule.min_children == rule.max_children
                                  ? std::to_string(rule.min_children)
                                  : std::to_string(rule.min_children) + " to " + std::to_string(rule.max_children);
    return BadPlan(kind + " takes " + range + " children, got " + std::to_string(n));
  }
  if (!IsKnownValueType(static_cast<int>(type))) {
    return BadPlan(kind + " has no valid value_type (" + std::to_string(static_cast<int>(type)) + ")");
  }
  if (rule.boolean_result && type != ValueType::kBoolean) {
    return BadPlan(kind + " must have value_type BOOLEAN, not " + std::string(TypeName(type)));
  }
  switch (e.kind()) {
    case proto::EXPRESSION_KIND_ADD:
    case proto::EXPRESSION_KIND_SUBTRACT:
    case proto::EXPRESSION_KIND_MULTIPLY:
    case proto::EXPRESSION_KIND_DIVIDE:
    case proto::EXPRESSION_KIND_MODULO:
    case proto::EXPRESSION_KIND_NEGATE:
      if (!IsNumericType(type) && type != ValueType::kTimestamp) {
        return BadPlan(kind + " cannot produce " + std::string(TypeName(type)));
      }
      break;
    case proto::EXPRESSION_KIND_CAST:
      if (type == ValueType::kNull) return BadPlan("CAST to the NULL type");
      if (e.max_length() < 0) return BadPlan("CAST with negative max_length " + std::to_string(e.max_length()));
      break;
    case proto::EXPRESSION_KIND_CASE:
      if ((n - (e.has_else() ? 1 : 0)) % 2 != 0 || n - (e.has_else() ? 1 : 0) < 2) {
        return BadPlan("CASE with " + std::to_string(n) + " children" + (e.has_else() ? " and ELSE" : "") +
                       " is not WHEN/THEN pairs");
      }
      break;
    default: break;
  }
  return Status::OK();
}

Result<ExpressionPtr> Build(const proto::Expression& e, const ExpressionScope& scope, int depth);

Result<ExpressionPtr> BuildNode(const proto::Expression& e, const ExpressionScope& scope, ValueType type,
                                ExpressionList c) {
  using expr::CompareOp, expr::ArithmeticOp;
  auto make = [](auto node) -> Result<ExpressionPtr> { return ExpressionPtr(std::move(node)); };
  auto arithmetic = [&](ArithmeticOp op) {
    return make(std::make_unique<expr::ArithmeticExpression>(type, op, std::move(c[0]),
                                                            c.size() > 1 ? std::move(c[1]) : nullptr));
  };
  auto compare = [&](CompareOp op) {
    return make(std::make_unique<expr::ComparisonExpression>(op, std::move(c[0]), std::move(c[1])));
  };
  switch (e.kind()) {
    case proto::EXPRESSION_KIND_COLUMN:
      if (e.column_index() < 0 || e.column_index() >= scope.column_count) {
        return BadPlan("COLUMN index " + std::to_string(e.column_index()) + " is outside the input row of " +
                       std::to_string(scope.column_count) + " columns");
      }
      return make(std::make_unique<expr::ColumnExpression>(type, e.column_index()));
    case proto::EXPRESSION_KIND_PARAMETER:
      if (e.parameter_index() < 0 || e.parameter_index() >= scope.param_count) {
        return BadPlan("PARAMETER index " + std::to_string(e.parameter_index()) + " is outside the " +
                       std::to_string(scope.param_count) + " statement parameters");
      }
      return make(std::make_unique<expr::ParameterExpression>(type, e.parameter_index()));
    case proto::EXPRESSION_KIND_CONSTANT: return expr::ConstantExpression::Create(e, type);
    case proto::EXPRESSION_KIND_OUTER_COLUMN:
      if (e.column_index() < 0 || e.column_index() >= scope.outer_count) {
        return BadPlan("OUTER_COLUMN index " + std::to_string(e.column_index()) + " is outside the " +
                       std::to_string(scope.outer_count) + " subquery arguments");
      }
      return make(std::make_unique<expr::OuterColumnExpression>(type, e.column_index()));
    case proto::EXPRESSION_KIND_SUBQUERY:
      if (scope.subqueries == nullptr) return BadPlan("subqueries are not allowed here");
      return scope.subqueries->BuildSubquery(e, std::move(c));
    case proto::EXPRESSION_KIND_ADD: return arithmetic(ArithmeticOp::kAdd);
    case proto::EXPRESSION_KIND_SUBTRACT: return arithmetic(ArithmeticOp::kSubtract);
    case proto::EXPRESSION_KIND_MULTIPLY: return arithmetic(ArithmeticOp::kMultiply);
    case proto::EXPRESSION_KIND_DIVIDE: return arithmetic(ArithmeticOp::kDivide);
    case proto::EXPRESSION_KIND_MODULO: return arithmetic(ArithmeticOp::kModulo);
    case proto::EXPRESSION_KIND_NEGATE: return arithmetic(ArithmeticOp::kNegate);
    case proto::EXPRESSION_KIND_EQUAL: return compare(CompareOp::kEqual);
    case proto::EXPRESSION_KIND_NOT_EQUAL: return compare(CompareOp::kNotEqual);
    case proto::EXPRESSION_KIND_LESS: return compare(CompareOp::kLess);
    case proto::EXPRESSION_KIND_LESS_EQUAL: return compare(CompareOp::kLessEqual);
    case proto::EXPRESSION_KIND_GREATER: return compare(CompareOp::kGreater);
    case proto::EXPRESSION_KIND_GREATER_EQUAL: return compare(CompareOp::kGreaterEqual);
    case proto::EXPRESSION_KIND_AND:
    case proto::EXPRESSION_KIND_OR:
      return make(std::make_unique<expr::AndOrExpression>(e.kind() == proto::EXPRESSION_KIND_AND, std::move(c)));
    case proto::EXPRESSION_KIND_NOT: return make(std::make_unique<expr::NotExpression>(std::move(c[0])));
    case proto::EXPRESSION_KIND_IS_NULL:
    case proto::EXPRESSION_KIND_IS_NOT_NULL:
      return make(std::make_unique<expr::IsNullExpression>(e.kind() == proto::EXPRESSION_KIND_IS_NOT_NULL,
                                                           std::move(c[0])));
    case proto::EXPRESSION_KIND_IN_LIST: {
      bool constant = true;
      for (int i = 1; i < e.children_size(); ++i) constant &= e.children(i).kind() == proto::EXPRESSION_KIND_CONSTANT;
      return make(std::make_unique<expr::InListExpression>(std::move(c), constant));
    }
    case proto::EXPRESSION_KIND_LIKE: {
      bool constant = true;
      for (int i = 1; i < e.children_size(); ++i) constant &= e.children(i).kind() == proto::EXPRESSION_KIND_CONSTANT;
      return make(std::make_unique<expr::LikeExpression>(std::move(c), constant));
    }
    case proto::EXPRESSION_KIND_BETWEEN:
      return make(std::make_unique<expr::BetweenExpression>(std::move(c[0]), std::move(c[1]), std::move(c[2])));
    case proto::EXPRESSION_KIND_CASE:
      return make(std::make_unique<expr::CaseExpression>(type, std::move(c), e.has_else()));
    case proto::EXPRESSION_KIND_CAST:
      return make(std::make_unique<expr::CastExpression>(type, e.max_length(), std::move(c[0])));
    case proto::EXPRESSION_KIND_FUNCTION: return expr::BuildFunction(e, type, std::move(c));
    default: return BadPlan("unknown expression " + KindName(e.kind()));
  }
}

Result<ExpressionPtr> Build(const proto::Expression& e, const ExpressionScope& scope, int depth) {
  if (depth > kMaxDepth) return BadPlan("expression nested deeper than " + std::to_string(kMaxDepth) + " levels");
  const std::string kind = KindName(e.kind());
  KindRule rule;
  if (!Rule(e.kind(), &rule)) return BadPlan("unknown expression " + kind);
  const ValueType type = DeclaredType(e);
  PARTITA_RETURN_IF_ERROR(CheckShape(e, rule, type, kind));
  ExpressionList children;
  children.reserve(e.children_size());
  for (int i = 0; i < e.children_size(); ++i) {
    Result<ExpressionPtr> child = Build(e.children(i), scope, depth + 1);
    if (!child.ok()) return child.status();
    children.push_back(std::move(child.value()));
  }
  return BuildNode(e, scope, type, std::move(children));
}

}  // namespace

Result<std::unique_ptr<Expression>> BuildExpression(const proto::Expression& e, const ExpressionScope& scope) {
  return Build(e, scope, 0);
}

Status EvalPredicate(const Expression& e, const EvalContext& ctx, bool* passes) {
  Value v;
  PARTITA_RETURN_IF_ERROR(e.Eval(ctx, &v));
  *passes = !v.is_null() && v.bool_value();
  return Status::OK();
}

}  // namespace partita
