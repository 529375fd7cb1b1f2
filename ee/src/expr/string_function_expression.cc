#include "expr/string_function_expression.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "common/assert.h"
#include "errors.pb.h"
#include "types/utf8.h"
#include "types/value_cast.h"

namespace partita::expr {
namespace {

// A non-null view for empty results (memcmp and friends reject nullptr).
constexpr std::string_view kEmpty("", 0);

Status NotText(const Value& v, proto::Function fn) {
  return Status(proto::ERROR_CODE_TYPE_MISMATCH, proto::Function_Name(fn) + " needs text, got " +
                                                     std::string(TypeName(v.type())) + " " + v.ToString());
}

std::string_view Trim(std::string_view s, bool left, bool right) {
  if (left) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  }
  if (right) {
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  }
  return s.empty() ? kEmpty : s;
}

// Clamps a 0-based position (possibly negative or huge) to [0, limit].
size_t Clamp(int64_t position, size_t limit) {
  if (position <= 0) return 0;
  return static_cast<uint64_t>(position) >= limit ? limit : static_cast<size_t>(position);
}

}  // namespace

StringFunctionExpression::StringFunctionExpression(ValueType type, proto::Function fn, ExpressionList args)
    : Expression(type), fn_(fn), args_(std::move(args)) {
  PARTITA_ASSERT(!args_.empty() && args_.size() <= kMaxConcatArgs, "text functions take 1 to 16 arguments");
}

Status StringFunctionExpression::Eval(const EvalContext& ctx, Value* out) const {
  if (fn_ == proto::FUNCTION_CONCAT) return EvalConcat(ctx, out);
  Value s;
  PARTITA_RETURN_IF_ERROR(args_[0]->Eval(ctx, &s));
  if (s.is_null()) {
    *out = Value::Null(type());
    return Status::OK();
  }
  if (!IsVariableLengthType(s.type())) return NotText(s, fn_);
  const std::string_view text = s.string_value();
  switch (fn_) {
    case proto::FUNCTION_CHAR_LENGTH:
    case proto::FUNCTION_OCTET_LENGTH: {
      const bool chars = fn_ == proto::FUNCTION_CHAR_LENGTH && s.type() == ValueType::kVarchar;
      const int64_t n = static_cast<int64_t>(chars ? utf8::CharCount(text) : text.size());
      PARTITA_RETURN_IF_ERROR(CheckIntResult(n, type(), [&] { return proto::Function_Name(fn_); }));
      *out = Value::Int(type(), n);
      return Status::OK();
    }
    case proto::FUNCTION_SUBSTRING: return EvalSubstring(s, ctx, out);
    case proto::FUNCTION_UPPER:
    case proto::FUNCTION_LOWER: return EvalCaseMap(s, ctx.arena, out);
    case proto::FUNCTION_TRIM: *out = Value::Bytes(type(), Trim(text, true, true)); return Status::OK();
    case proto::FUNCTION_LTRIM: *out = Value::Bytes(type(), Trim(text, true, false)); return Status::OK();
    case proto::FUNCTION_RTRIM: *out = Value::Bytes(type(), Trim(text, false, true)); return Status::OK();
    default: PARTITA_ASSERT(false, "not a text function");
  }
  return Status::OK();
}

Status StringFunctionExpression::EvalConcat(const EvalContext& ctx, Value* out) const {
  Value parts[kMaxConcatArgs];
  size_t total = 0;
  for (size_t i = 0; i < args_.size(); ++i) {
    PARTITA_RETURN_IF_ERROR(args_[i]->Eval(ctx, &parts[i]));
    if (parts[i].is_null()) {
      *out = Value::Null(type());
      return Status::OK();
    }
    if (!IsVariableLengthType(parts[i].type())) {
      Result<Value> text = ConvertValue(parts[i], ValueType::kVarchar, 0, ConversionMode::kCast, ctx.arena, "CONCAT");
      if (!text.ok()) return text.status();
      parts[i] = text.value();
    }
    total += parts[i].string_value().size();
  }
  if (total == 0) {
    *out = Value::Bytes(type(), kEmpty);
    return Status::OK();
  }
  PARTITA_ASSERT(ctx.arena != nullptr, "CONCAT needs an arena");
  char* buffer = ctx.arena->Allocate(total);
  size_t at = 0;
  for (size_t i = 0; i < args_.size(); ++i) {
    const std::string_view part = parts[i].string_value();
    if (!part.empty()) std::memcpy(buffer + at, part.data(), part.size());
    at += part.size();
  }
  *out = Value::Bytes(type(), std::string_view(buffer, total));
  return Status::OK();
}

Status StringFunctionExpression::EvalSubstring(const Value& s, const EvalContext& ctx, Value* out) const {
  Value start_value, length_value;
  PARTITA_RETURN_IF_ERROR(args_[1]->Eval(ctx, &start_value));
  if (args_.size() == 3) PARTITA_RETURN_IF_ERROR(args_[2]->Eval(ctx, &length_value));
  if (start_value.is_null() || (args_.size() == 3 && length_value.is_null())) {
    *out = Value::Null(type());
    return Status::OK();
  }
  int64_t start;
  PARTITA_RETURN_IF_ERROR(IntOperand(start_value, "SUBSTRING start", &start));
  // 0-based character range [begin, end) of the SQL positions start ..
  // start+length-1, before clipping to the string.
  int64_t begin = start == INT64_MIN ? INT64_MIN : start - 1;
  int64_t end = INT64_MAX;
  if (args_.size() == 3) {
    int64_t length;
    PARTITA_RETURN_IF_ERROR(IntOperand(length_value, "SUBSTRING length", &length));
    if (length < 0) {
      return Status(proto::ERROR_CODE_SQL_ERROR, "negative SUBSTRING length " + std::to_string(length));
    }
    if (__builtin_add_overflow(begin, length, &end)) end = begin < 0 ? INT64_MIN : INT64_MAX;
  }
  const std::string_view text = s.string_value();
  const bool chars = s.type() == ValueType::kVarchar;
  const size_t limit = chars ? utf8::CharCount(text) : text.size();
  const size_t first = Clamp(begin, limit);
  const size_t last = std::max(first, Clamp(end, limit));
  const size_t from = chars ? utf8::ByteOffset(text, first) : first;
  const size_t to = chars ? utf8::ByteOffset(text, last) : last;
  *out = Value::Bytes(type(), to > from ? text.substr(from, to - from) : kEmpty);
  return Status::OK();
}

Status StringFunctionExpression::EvalCaseMap(const Value& s, Arena* arena, Value* out) const {
  const bool upper = fn_ == proto::FUNCTION_UPPER;
  const std::string_view text = s.string_value();
  auto changes = [upper](char c) { return upper ? (c >= 'a' && c <= 'z') : (c >= 'A' && c <= 'Z'); };
  const size_t first = static_cast<size_t>(std::find_if(text.begin(), text.end(), changes) - text.begin());
  if (first == text.size()) {  // nothing to change: return the argument
    *out = Value::Bytes(type(), text);
    return Status::OK();
  }
  PARTITA_ASSERT(arena != nullptr, "UPPER/LOWER need an arena");
  char* buffer = arena->Allocate(text.size());
  std::memcpy(buffer, text.data(), text.size());
  for (size_t i = first; i < text.size(); ++i) {
    if (changes(buffer[i])) buffer[i] = static_cast<char>(buffer[i] ^ 0x20);  // ASCII case bit
  }
  *out = Value::Bytes(type(), std::string_view(buffer, text.size()));
  return Status::OK();
}

}  // namespace partita::expr
