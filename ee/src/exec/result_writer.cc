#include "exec/result_writer.h"

#include "common/assert.h"
#include "errors.pb.h"
#include "types/value_cast.h"

namespace partita {

ResultHeader ResultHeader::Make(const std::vector<std::pair<std::string, ValueType>>& columns) {
  ResultHeader h;
  auto put = [&](const void* p, size_t n) { h.bytes.append(static_cast<const char*>(p), n); };
  const auto count = static_cast<uint16_t>(columns.size());
  put(&count, 2);
  for (const auto& [name, type] : columns) {
    h.types.push_back(type);
    const auto t = static_cast<uint8_t>(type);
    const auto len = static_cast<uint16_t>(std::min<size_t>(name.size(), UINT16_MAX));
    put(&t, 1);
    put(&len, 2);
    put(name.data(), len);
  }
  return h;
}

namespace {

template <typename T>
uint8_t* Store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
  return p + sizeof v;
}

}  // namespace

void ResultWriter::Begin(ResultSet* out, size_t limit) {
  out_ = out;
  out_->Clear();
  buf_ = &out_->buffer();
  limit_ = limit;
  Grow(4);  // table_count, patched by Finish
}

void ResultWriter::BeginTable(const ResultHeader& header) {
  header_ = &header;
  table_start_ = buf_->size();
  out_->AddTableOffset(table_start_);
  // table_size (patched by EndTable), the header, row_count (patched too).
  uint8_t* p = Grow(4 + header.bytes.size() + 4);
  std::memcpy(p + 4, header.bytes.data(), header.bytes.size());
  row_count_at_ = table_start_ + 4 + header.bytes.size();
  rows_ = 0;
}

size_t ResultWriter::ValueSize(const Value& v, ValueType type) {
  switch (type) {
    case ValueType::kTinyInt:
    case ValueType::kBoolean: return 1;
    case ValueType::kSmallInt: return 2;
    case ValueType::kInteger: return 4;
    case ValueType::kBigInt:
    case ValueType::kTimestamp:
    case ValueType::kFloat: return 8;
    case ValueType::kDecimal: return sizeof(int128);
    case ValueType::kVarchar:
    case ValueType::kVarbinary: return 4 + v.string_value().size();
    default: return 0;
  }
}

uint8_t* ResultWriter::WriteValue(uint8_t* p, const Value& v, ValueType type) {
  switch (type) {
    case ValueType::kTinyInt:
    case ValueType::kBoolean: return Store(p, static_cast<int8_t>(v.int_value()));
    case ValueType::kSmallInt: return Store(p, static_cast<int16_t>(v.int_value()));
    case ValueType::kInteger: return Store(p, static_cast<int32_t>(v.int_value()));
    case ValueType::kBigInt:
    case ValueType::kTimestamp: return Store(p, v.int_value());
    case ValueType::kFloat: return Store(p, v.float_value());
    case ValueType::kDecimal: return Store(p, v.decimal_value());
    case ValueType::kVarchar:
    case ValueType::kVarbinary: {
      const std::string_view s = v.string_value();
      p = Store(p, static_cast<uint32_t>(s.size()));
      std::memcpy(p, s.data(), s.size());
      return p + s.size();
    }
    default: return p;
  }
}

Status ResultWriter::PutValue(const Value& v, ValueType type, Arena* arena) {
  if (v.type() != type) {
    Result<Value> converted = ConvertValue(v, type, 0, ConversionMode::kCast, arena, "result column");
    if (!converted.ok()) return converted.status();
    return PutValue(converted.value(), type, arena);
  }
  const size_t n = ValueSize(v, type);
  if (n == 0) return Status(proto::ERROR_CODE_INTERNAL, "result column of unsupported type");
  WriteValue(Grow(n), v, type);
  return Status::OK();
}

size_t ResultWriter::RowSize(const Value* row) const {
  const std::vector<ValueType>& types = header_->types;
  size_t size = 4 + (types.size() + 7) / 8;
  for (size_t c = 0; c < types.size(); ++c) {
    if (row[c].is_null()) continue;
    if (row[c].type() != types[c]) return 0;
    const size_t n = ValueSize(row[c], types[c]);
    if (n == 0) return 0;
    size += n;
  }
  return size;
}

Status ResultWriter::AddRow(const Value* row, Arena* arena) {
  const size_t size = RowSize(row);
  if (size == 0) return AddConvertedRow(row, arena);
  const size_t width = header_->types.size();
  uint8_t* const start = Grow(size);
  uint8_t* const bitmap = Store(start, static_cast<uint32_t>(size - 4));
  uint8_t* p = bitmap + (width + 7) / 8;
  for (size_t c = 0; c < width; ++c) {
    if (row[c].is_null()) {
      bitmap[c / 8] |= static_cast<uint8_t>(1u << (c % 8));
      continue;
    }
    p = WriteValue(p, row[c], header_->types[c]);
  }
  PARTITA_ASSERT(p == start + size, "a result row's size was computed wrong");
  ++rows_;
  return CheckLimit();
}

Status ResultWriter::AddConvertedRow(const Value* row, Arena* arena) {
  const size_t width = header_->types.size();
  const size_t row_start = buf_->size();
  Grow(4 + (width + 7) / 8);  // row_size (patched below) and the null bitmap
  const size_t bitmap_at = row_start + 4;
  for (size_t c = 0; c < width; ++c) {
    if (row[c].is_null()) {
      (*buf_)[bitmap_at + c / 8] |= static_cast<uint8_t>(1u << (c % 8));
      continue;
    }
    PARTITA_RETURN_IF_ERROR(PutValue(row[c], header_->types[c], arena));
  }
  const auto row_size = static_cast<uint32_t>(buf_->size() - row_start - 4);
  std::memcpy(buf_->data() + row_start, &row_size, 4);
  ++rows_;
  return CheckLimit();
}

Status ResultWriter::CheckLimit() const {
  if (buf_->size() > limit_) {
    return Status(proto::ERROR_CODE_RESULT_TOO_LARGE,
                  "results exceed the limit of " + std::to_string(limit_) + " bytes");
  }
  return Status::OK();
}

void ResultWriter::EndTable() {
  std::memcpy(buf_->data() + row_count_at_, &rows_, 4);
  const auto size = static_cast<uint32_t>(buf_->size() - table_start_ - 4);
  std::memcpy(buf_->data() + table_start_, &size, 4);
}

void ResultWriter::Finish() { out_->SetTableCount(); }

}  // namespace partita
