#include "engine/batch_request.h"

#include <cstring>
#include <string>

namespace partita {
namespace {

class Cursor {
 public:
  explicit Cursor(std::span<const uint8_t> b) : b_(b) {}
  template <typename T>
  bool Read(T* out) {
    if (b_.size() - pos_ < sizeof(T)) return false;
    std::memcpy(out, b_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  bool Bytes(uint32_t n, std::string_view* out) {
    if (b_.size() - pos_ < n) return false;
    *out = {reinterpret_cast<const char*>(b_.data() + pos_), n};
    pos_ += n;
    return true;
  }
  size_t pos() const { return pos_; }
  bool done() const { return pos_ == b_.size(); }

 private:
  std::span<const uint8_t> b_;
  size_t pos_ = 0;
};

Status Bad(const Cursor& c, const std::string& what) {
  return Status(proto::ERROR_CODE_BAD_REQUEST, "malformed batch at byte " + std::to_string(c.pos()) + ": " + what);
}

bool ReadValue(Cursor* c, ValueType t, Value* out) {
  switch (t) {
    case ValueType::kNull: *out = Value(); return true;
    case ValueType::kTinyInt: { int8_t x; if (!c->Read(&x)) return false; *out = Value::TinyInt(x); return true; }
    case ValueType::kSmallInt: { int16_t x; if (!c->Read(&x)) return false; *out = Value::SmallInt(x); return true; }
    case ValueType::kInteger: { int32_t x; if (!c->Read(&x)) return false; *out = Value::Integer(x); return true; }
    case ValueType::kBigInt:
    case ValueType::kTimestamp: { int64_t x; if (!c->Read(&x)) return false; *out = Value::Int(t, x); return true; }
    case ValueType::kFloat: { double x; if (!c->Read(&x)) return false; *out = Value::Float(x); return true; }
    case ValueType::kDecimal: {
      int128 x;
      if (!c->Read(&x) || x > kDecimalMaxUnscaled || x < -kDecimalMaxUnscaled) return false;
      *out = Value::Decimal(x);
      return true;
    }
    case ValueType::kVarchar:
    case ValueType::kVarbinary: {
      uint32_t n;
      std::string_view s;
      if (!c->Read(&n) || !c->Bytes(n, &s)) return false;
      *out = Value::Bytes(t, s);
      return true;
    }
    default: return false;
  }
}

}  // namespace

Status BatchRequest::Decode(std::span<const uint8_t> bytes) {
  Cursor c(bytes);
  uint8_t flags;
  uint16_t call_count;
  if (!c.Read(&flags) || !c.Read(&options_.txn_timestamp) || !c.Read(&call_count)) return Bad(c, "truncated header");
  options_.final_batch = (flags & 1) != 0;
  values_.clear();
  calls_.clear();
  std::vector<std::pair<size_t, size_t>> ranges;  // values_ slices, fixed up after growth
  for (uint16_t i = 0; i < call_count; ++i) {
    int32_t statement;
    uint16_t params;
    if (!c.Read(&statement) || !c.Read(&params)) return Bad(c, "truncated call " + std::to_string(i));
    const size_t first = values_.size();
    for (uint16_t p = 0; p < params; ++p) {
      uint8_t type;
      Value v;
      if (!c.Read(&type)) return Bad(c, "truncated parameter " + std::to_string(p) + " of call " + std::to_string(i));
      if (!IsKnownValueType(type) || type == proto::VALUE_TYPE_BOOLEAN ||
          !ReadValue(&c, static_cast<ValueType>(type), &v)) {
        return Bad(c, "bad parameter " + std::to_string(p) + " of call " + std::to_string(i) + " (type " +
                          std::to_string(type) + ")");
      }
      values_.push_back(v);
    }
    calls_.push_back(StatementCall{statement, {}});
    ranges.emplace_back(first, params);
  }
  if (!c.done()) return Bad(c, "trailing bytes");
  for (size_t i = 0; i < calls_.size(); ++i) calls_[i].parameters = {values_.data() + ranges[i].first, ranges[i].second};
  return Status::OK();
}

}  // namespace partita
