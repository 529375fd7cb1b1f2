// Test-only helpers: builders of proto::Expression trees and a harness that
// builds and evaluates them. Included by the *_test.cc files of this folder;
// never by production code.
#ifndef PARTITA_EXPR_EXPRESSION_TEST_HELPERS_H_
#define PARTITA_EXPR_EXPRESSION_TEST_HELPERS_H_

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "common/arena.h"
#include "errors.pb.h"
#include "expr/expression.h"
#include "plan.pb.h"

namespace partita::testing_expr {

using Expr = ::partita::proto::Expression;
namespace pb = ::partita::proto;

inline Expr Node(pb::ExpressionKind kind, pb::ValueType type, std::initializer_list<Expr> children = {}) {
  Expr e;
  e.set_kind(kind);
  e.set_value_type(type);
  for (const Expr& c : children) *e.add_children() = c;
  return e;
}

inline Expr NodeN(pb::ExpressionKind kind, pb::ValueType type, const std::vector<Expr>& children) {
  Expr e = Node(kind, type);
  for (const Expr& c : children) *e.add_children() = c;
  return e;
}

inline Expr Fn(pb::Function fn, pb::ValueType type, std::initializer_list<Expr> args = {}) {
  Expr e = Node(pb::EXPRESSION_KIND_FUNCTION, type, args);
  e.set_function(fn);
  return e;
}

inline Expr Col(int index, pb::ValueType type) {
  Expr e = Node(pb::EXPRESSION_KIND_COLUMN, type);
  e.set_column_index(index);
  return e;
}

inline Expr Param(int index, pb::ValueType type) {
  Expr e = Node(pb::EXPRESSION_KIND_PARAMETER, type);
  e.set_parameter_index(index);
  return e;
}

inline Expr Const(pb::ValueType type) {
  Expr e = Node(pb::EXPRESSION_KIND_CONSTANT, type);
  e.mutable_constant()->set_type(type);
  return e;
}

inline Expr Int(int64_t x, pb::ValueType type = pb::VALUE_TYPE_BIGINT) {
  Expr e = Const(type);
  e.mutable_constant()->set_int_value(x);
  return e;
}
inline Expr Ts(int64_t micros) { return Int(micros, pb::VALUE_TYPE_TIMESTAMP); }
inline Expr Bool(bool b) { return Int(b ? 1 : 0, pb::VALUE_TYPE_BOOLEAN); }

inline Expr Flt(double x) {
  Expr e = Const(pb::VALUE_TYPE_FLOAT);
  e.mutable_constant()->set_float_value(x);
  return e;
}

inline Expr Dec(const std::string& text) {
  Expr e = Const(pb::VALUE_TYPE_DECIMAL);
  e.mutable_constant()->set_decimal_value(text);
  return e;
}

inline Expr Str(const std::string& s) {
  Expr e = Const(pb::VALUE_TYPE_VARCHAR);
  e.mutable_constant()->set_string_value(s);
  return e;
}

inline Expr Bin(const std::string& s) {
  Expr e = Const(pb::VALUE_TYPE_VARBINARY);
  e.mutable_constant()->set_bytes_value(s);
  return e;
}

// A typed NULL constant (no oneof field set).
inline Expr Null(pb::ValueType type) { return Const(type); }
inline Expr NullBool() { return Null(pb::VALUE_TYPE_BOOLEAN); }

inline Expr Cast(pb::ValueType type, Expr x, int max_length = 0) {
  Expr e = Node(pb::EXPRESSION_KIND_CAST, type, {x});
  e.set_max_length(max_length);
  return e;
}

inline Expr Bin2(pb::ExpressionKind kind, pb::ValueType type, Expr a, Expr b) {
  return Node(kind, type, {a, b});
}

// Builds and evaluates expressions over a row and parameters it holds.
class Harness {
 public:
  std::vector<Value> row;
  std::vector<Value> params;
  int64_t txn_timestamp = 0;

  Result<std::unique_ptr<partita::Expression>> Build(const Expr& e) const {
    return BuildExpression(e, ExpressionScope{static_cast<int32_t>(row.size()), static_cast<int32_t>(params.size())});
  }
  // Builds (which must succeed) and evaluates `e`. The built tree is kept
  // alive with the harness, since results may point into its constants.
  Result<Value> Eval(const Expr& e) {
    Result<std::unique_ptr<partita::Expression>> built = Build(e);
    EXPECT_TRUE(built.ok()) << built.status().ToString();
    if (!built.ok()) return built.status();
    built_.push_back(std::move(built.value()));
    Value out;
    Status s = built_.back()->Eval(Context(), &out);
    if (!s.ok()) return s;
    return out;
  }
  // Evaluates `e`, which must succeed.
  Value Ok(const Expr& e) {
    Result<Value> r = Eval(e);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r.value() : Value();
  }
  // The error code of evaluating `e` (OK if it succeeds).
  ErrorCode Code(const Expr& e) {
    Result<Value> r = Eval(e);
    return r.ok() ? pb::ERROR_CODE_OK : r.status().code();
  }
  EvalContext Context() {
    EvalContext ctx;
    ctx.row = row.data();
    ctx.params = params.data();
    ctx.param_count = static_cast<int32_t>(params.size());
    ctx.arena = &arena;
    ctx.txn_timestamp = txn_timestamp;
    return ctx;
  }
  Arena arena;

 private:
  std::vector<std::unique_ptr<partita::Expression>> built_;
};

// "TRUE", "FALSE" or "NULL" for truth-table assertions.
inline std::string TruthText(const Value& v) {
  if (v.is_null()) return "NULL";
  return v.bool_value() ? "TRUE" : "FALSE";
}

}  // namespace partita::testing_expr

#endif  // PARTITA_EXPR_EXPRESSION_TEST_HELPERS_H_
