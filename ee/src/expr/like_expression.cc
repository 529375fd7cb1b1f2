#include "expr/like_expression.h"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "common/assert.h"
#include "errors.pb.h"
#include "types/utf8.h"

namespace partita::expr {
namespace {

constexpr size_t kNone = std::string_view::npos;

enum class ElementKind { kLiteral, kAnyChar, kAnyString };

// One element of a pattern: `size` pattern bytes matching `literal`, one
// character, or any run of characters.
struct Element {
  ElementKind kind;
  std::string_view literal;
  size_t size;
};

// Bytes of the character starting at `i` (1 for an invalid byte).
size_t CharLength(std::string_view s, size_t i) {
  size_t j = i + 1;
  while (j < s.size() && utf8::IsContinuation(s[j])) ++j;
  return j - i;
}

// memcmp that accepts the null data of empty views.
bool BytesEqual(const char* a, const char* b, size_t n) { return n == 0 || std::memcmp(a, b, n) == 0; }

bool EscapeAt(std::string_view pattern, size_t p, std::string_view escape) {
  return !escape.empty() && pattern.substr(p, escape.size()) == escape;
}

// REQUIRES: ValidatePattern(pattern, escape) is OK and p < pattern.size().
Element ElementAt(std::string_view pattern, size_t p, std::string_view escape) {
  if (EscapeAt(pattern, p, escape)) {
    const size_t at = p + escape.size();
    const size_t n = CharLength(pattern, at);
    return {ElementKind::kLiteral, pattern.substr(at, n), escape.size() + n};
  }
  if (pattern[p] == '%') return {ElementKind::kAnyString, {}, 1};
  if (pattern[p] == '_') return {ElementKind::kAnyChar, {}, 1};
  return {ElementKind::kLiteral, pattern.substr(p, 1), 1};
}

Status SqlError(std::string message) { return Status(proto::ERROR_CODE_SQL_ERROR, std::move(message)); }

// TYPE_MISMATCH unless `v` is VARCHAR or VARBINARY.
Status CheckText(const Value& v, const char* role) {
  if (IsVariableLengthType(v.type())) return Status::OK();
  return Status(proto::ERROR_CODE_TYPE_MISMATCH,
                std::string("LIKE ") + role + " must be text, got " + std::string(TypeName(v.type())) + " " +
                    v.ToString());
}

Status ValidateEscape(std::string_view escape) {
  if (utf8::CharCount(escape) == 1) return Status::OK();
  return SqlError("LIKE escape must be a single character, got '" + std::string(escape) + "'");
}

// Checks that every escape in `pattern` precedes `%`, `_` or the escape.
Status ValidatePattern(std::string_view pattern, std::string_view escape) {
  if (escape.empty()) return Status::OK();
  for (size_t p = 0; p < pattern.size();) {
    if (!EscapeAt(pattern, p, escape)) {
      ++p;
      continue;
    }
    const size_t next = p + escape.size();
    const bool special = next < pattern.size() && (pattern[next] == '%' || pattern[next] == '_');
    if (!special && !EscapeAt(pattern, next, escape)) {
      return SqlError("invalid escape sequence in LIKE pattern '" + std::string(pattern) + "' with escape '" +
                      std::string(escape) + "'");
    }
    p = next + (special ? 1 : escape.size());
  }
  return Status::OK();
}

// Returns true iff `text` matches `pattern`. Greedy, backtracking only to the
// most recent `%` (enough, since a later `%` subsumes earlier choices).
// REQUIRES: ValidatePattern(pattern, escape) is OK.
bool MatchGeneral(std::string_view text, std::string_view pattern, std::string_view escape) {
  size_t t = 0, p = 0;
  size_t resume_p = kNone, resume_t = 0;
  while (t < text.size()) {
    if (p < pattern.size()) {
      const Element e = ElementAt(pattern, p, escape);
      if (e.kind == ElementKind::kAnyString) {
        p += e.size;
        resume_p = p;
        resume_t = t;
        continue;
      }
      if (e.kind == ElementKind::kAnyChar) {
        t += CharLength(text, t);
        p += e.size;
        continue;
      }
      if (text.substr(t, e.literal.size()) == e.literal) {
        t += e.literal.size();
        p += e.size;
        continue;
      }
    }
    if (resume_p == kNone) return false;
    resume_t += CharLength(text, resume_t);  // let the last % take one more character
    t = resume_t;
    p = resume_p;
  }
  while (p < pattern.size()) {
    const Element e = ElementAt(pattern, p, escape);
    if (e.kind != ElementKind::kAnyString) return false;
    p += e.size;
  }
  return true;
}

}  // namespace

LikeExpression::LikeExpression(ExpressionList children, bool constant_pattern)
    : Expression(ValueType::kBoolean), children_(std::move(children)) {
  PARTITA_ASSERT(children_.size() == 2 || children_.size() == 3, "LIKE has 2 or 3 operands");
  if (constant_pattern) Precompile();
}

void LikeExpression::Precompile() {
  const EvalContext no_row;  // constants read nothing
  Value pattern, escape;
  if (!children_[1]->Eval(no_row, &pattern).ok()) return;
  if (children_.size() == 3 && !children_[2]->Eval(no_row, &escape).ok()) return;
  if (pattern.is_null() || (children_.size() == 3 && escape.is_null())) {
    shape_ = Shape::kNull;
    return;
  }
  invalid_ = CheckText(pattern, "pattern");
  if (invalid_.ok() && children_.size() == 3) invalid_ = CheckText(escape, "escape");
  if (!invalid_.ok()) {
    shape_ = Shape::kInvalid;
    return;
  }
  pattern_ = std::string(pattern.string_value());
  if (children_.size() == 3) {
    escape_ = std::string(escape.string_value());
    invalid_ = ValidateEscape(escape_);
  }
  if (invalid_.ok()) invalid_ = ValidatePattern(pattern_, escape_);
  if (!invalid_.ok()) {
    shape_ = Shape::kInvalid;
    return;
  }
  // Tokens: literal runs (unescaped) and '%'; any '_' means kGeneral.
  std::vector<std::string> tokens;  // "%" entries stand for the wildcard
  std::vector<bool> is_wildcard;
  for (size_t p = 0; p < pattern_.size();) {
    const Element e = ElementAt(pattern_, p, escape_);
    p += e.size;
    if (e.kind == ElementKind::kAnyChar) {
      shape_ = Shape::kGeneral;
      return;
    }
    const bool wildcard = e.kind == ElementKind::kAnyString;
    if (!tokens.empty() && is_wildcard.back() == wildcard) {
      if (!wildcard) tokens.back().append(e.literal);
      continue;
    }
    tokens.emplace_back(wildcard ? std::string_view() : e.literal);
    is_wildcard.push_back(wildcard);
  }
  const size_t n = tokens.size();
  if (n == 0 || (n == 1 && !is_wildcard[0])) {
    shape_ = Shape::kExact;
    if (n == 1) literal_ = tokens[0];
  } else if (n == 1) {
    shape_ = Shape::kAny;
  } else if (n == 2) {
    shape_ = is_wildcard[1] ? Shape::kPrefix : Shape::kSuffix;
    literal_ = is_wildcard[1] ? tokens[0] : tokens[1];
  } else if (n == 3 && is_wildcard[0]) {
    shape_ = Shape::kContains;
    literal_ = tokens[1];
  } else {
    shape_ = Shape::kGeneral;
  }
}

bool LikeExpression::MatchPrecompiled(std::string_view text) const {
  const size_t n = literal_.size();
  switch (shape_) {
    case Shape::kExact: return text.size() == n && BytesEqual(text.data(), literal_.data(), n);
    case Shape::kPrefix: return text.size() >= n && BytesEqual(text.data(), literal_.data(), n);
    case Shape::kSuffix: return text.size() >= n && BytesEqual(text.data() + text.size() - n, literal_.data(), n);
    case Shape::kContains: return text.find(literal_) != std::string_view::npos;
    case Shape::kAny: return true;
    default: return MatchGeneral(text, pattern_, escape_);
  }
}

Status LikeExpression::Eval(const EvalContext& ctx, Value* out) const {
  Value text;
  PARTITA_RETURN_IF_ERROR(children_[0]->Eval(ctx, &text));
  if (text.is_null() || shape_ == Shape::kNull) {
    *out = Value::Null(ValueType::kBoolean);
    return Status::OK();
  }
  PARTITA_RETURN_IF_ERROR(CheckText(text, "operand"));
  if (shape_ == Shape::kInvalid) return invalid_;
  if (shape_ != Shape::kDynamic) {
    *out = Value::Boolean(MatchPrecompiled(text.string_value()));
    return Status::OK();
  }
  Value pattern, escape;
  PARTITA_RETURN_IF_ERROR(children_[1]->Eval(ctx, &pattern));
  if (children_.size() == 3 && !pattern.is_null()) PARTITA_RETURN_IF_ERROR(children_[2]->Eval(ctx, &escape));
  if (pattern.is_null() || (children_.size() == 3 && escape.is_null())) {
    *out = Value::Null(ValueType::kBoolean);
    return Status::OK();
  }
  PARTITA_RETURN_IF_ERROR(CheckText(pattern, "pattern"));
  std::string_view escape_text;
  if (children_.size() == 3) {
    PARTITA_RETURN_IF_ERROR(CheckText(escape, "escape"));
    escape_text = escape.string_value();
    PARTITA_RETURN_IF_ERROR(ValidateEscape(escape_text));
  }
  PARTITA_RETURN_IF_ERROR(ValidatePattern(pattern.string_value(), escape_text));
  *out = Value::Boolean(MatchGeneral(text.string_value(), pattern.string_value(), escape_text));
  return Status::OK();
}

}  // namespace partita::expr
