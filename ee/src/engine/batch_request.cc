#include "engine/batch_request.h"

#include <cstring>
#include <string>

#include "errors.pb.h"
#include "plan.pb.h"

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

constexpr uint8_t kFinalBatchFlag = 1;
constexpr uint8_t kDependenciesFlag = 2;
constexpr uint8_t kTimeLimitFlag = 4;
constexpr uint8_t kPrefetchKeyFlag = 8;
constexpr uint8_t kKnownFlags = kFinalBatchFlag | kDependenciesFlag | kTimeLimitFlag | kPrefetchKeyFlag;
constexpr uint32_t kTableSizeField = 4;

// Dependencies := u16 count, count × (i32 id, u32 byte_length, one table).
Status DecodeDependencies(Cursor* cursor, std::vector<DependencyTable>* out) {
  Cursor& c = *cursor;
  uint16_t count;
  if (!c.Read(&count)) return Bad(c, "truncated dependency count");
  for (uint16_t i = 0; i < count; ++i) {
    const std::string which = "dependency " + std::to_string(i);
    int32_t id;
    uint32_t length;
    if (!c.Read(&id) || !c.Read(&length)) return Bad(c, "truncated " + which);
    const size_t at = c.pos();
    std::string_view table;
    if (!c.Bytes(length, &table)) return Bad(c, which + " (id " + std::to_string(id) + ") of " + std::to_string(length) + " bytes runs past the end");
    uint32_t table_size = 0;
    if (length >= kTableSizeField) std::memcpy(&table_size, table.data(), kTableSizeField);
    if (length < kTableSizeField || table_size != length - kTableSizeField) {
      return Status(proto::ERROR_CODE_BAD_REQUEST, "malformed batch at byte " + std::to_string(at) + ": " + which +
                                                       " (id " + std::to_string(id) + "): byte_length " +
                                                       std::to_string(length) +
                                                       " is not the table's table_size + 4");
    }
    out->push_back(DependencyTable{id, {reinterpret_cast<const uint8_t*>(table.data()), table.size()}});
  }
  return Status::OK();
}

// The prefetch key (flags bit 3): one Param, never NULL.
Status DecodePrefetchKey(Cursor* c, Value* out) {
  uint8_t type;
  if (!c->Read(&type)) return Bad(*c, "truncated prefetch key");
  if (!IsKnownValueType(type) || type == proto::VALUE_TYPE_BOOLEAN || type == proto::VALUE_TYPE_NULL ||
      !ReadValue(c, static_cast<ValueType>(type), out)) {
    return Bad(*c, "bad prefetch key (type " + std::to_string(type) + ")");
  }
  return Status::OK();
}

}  // namespace

proto::Statement* BatchRequest::NextStatement() {
  if (statements_used_ == statements_.size()) statements_.push_back(std::make_unique<proto::Statement>());
  return statements_[statements_used_++].get();
}

Status BatchRequest::Decode(std::span<const uint8_t> bytes) {
  Cursor c(bytes);
  uint8_t flags;
  uint16_t call_count;
  uint32_t time_limit_ms = 0;
  if (!c.Read(&flags) || !c.Read(&options_.txn_timestamp)) return Bad(c, "truncated header");
  if ((flags & ~kKnownFlags) != 0) return Bad(c, "unknown flags " + std::to_string(flags));
  if ((flags & kTimeLimitFlag) != 0 && !c.Read(&time_limit_ms)) return Bad(c, "truncated time limit");
  if ((flags & kTimeLimitFlag) != 0 && time_limit_ms == 0) return Bad(c, "a time limit of 0 ms (omit flag bit 2 for none)");
  options_.prefetch_key = Value();
  if ((flags & kPrefetchKeyFlag) != 0) PARTITA_RETURN_IF_ERROR(DecodePrefetchKey(&c, &options_.prefetch_key));
  if (!c.Read(&call_count)) return Bad(c, "truncated header");
  options_.time_limit_ms = time_limit_ms;
  options_.final_batch = (flags & kFinalBatchFlag) != 0;
  options_.dependencies = {};
  values_.clear();
  calls_.clear();
  ranges_.clear();
  dependencies_.clear();
  statements_used_ = 0;
  for (uint16_t i = 0; i < call_count; ++i) {
    int32_t statement;
    uint16_t params;
    if (!c.Read(&statement)) return Bad(c, "truncated call " + std::to_string(i));
    const proto::Statement* ad_hoc = nullptr;
    if (statement == kAdHocStatement) {
      uint32_t length;
      std::string_view plan;
      if (!c.Read(&length) || !c.Bytes(length, &plan)) return Bad(c, "truncated ad-hoc statement of call " + std::to_string(i));
      proto::Statement* parsed = NextStatement();
      if (!parsed->ParseFromArray(plan.data(), static_cast<int>(plan.size()))) {
        return Status(proto::ERROR_CODE_BAD_REQUEST, "malformed batch at byte " + std::to_string(c.pos() - length) +
                                                         ": call " + std::to_string(i) + ": the " +
                                                         std::to_string(length) +
                                                         " bytes are not a valid ad-hoc Statement message");
      }
      ad_hoc = parsed;
    }
    if (!c.Read(&params)) return Bad(c, "truncated call " + std::to_string(i));
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
    calls_.push_back(StatementCall{statement, {}, ad_hoc});
    ranges_.emplace_back(first, params);
  }
  if ((flags & kDependenciesFlag) != 0) PARTITA_RETURN_IF_ERROR(DecodeDependencies(&c, &dependencies_));
  if (!c.done()) return Bad(c, "trailing bytes");
  // values_ may have grown while decoding: point the calls at it only now.
  for (size_t i = 0; i < calls_.size(); ++i) calls_[i].parameters = {values_.data() + ranges_[i].first, ranges_[i].second};
  options_.dependencies = dependencies_;
  return Status::OK();
}

}  // namespace partita
