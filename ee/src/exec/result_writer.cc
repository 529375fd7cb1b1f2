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

void ResultWriter::Begin(ResultSet* out, size_t limit) {
  out_ = out;
  out_->Clear();
  buf_ = &out_->buffer();
  limit_ = limit;
  PutScalar<uint32_t>(0);  // table_count, patched by Finish
}

void ResultWriter::BeginTable(const ResultHeader& header) {
  header_ = &header;
  table_start_ = buf_->size();
  out_->AddTableOffset(table_start_);
  PutScalar<uint32_t>(0);  // table_size, patched by EndTable
  Put(header.bytes.data(), header.bytes.size());
  row_count_at_ = buf_->size();
  PutScalar<uint32_t>(0);
  rows_ = 0;
}

Status ResultWriter::PutValue(const Value& v, ValueType type, Arena* arena) {
  if (v.type() != type) {
    Result<Value> converted = ConvertValue(v, type, 0, ConversionMode::kCast, arena, "result column");
    if (!converted.ok()) return converted.status();
    return PutValue(converted.value(), type, arena);
  }
  switch (type) {
    case ValueType::kTinyInt:
    case ValueType::kBoolean: PutScalar(static_cast<int8_t>(v.int_value())); break;
    case ValueType::kSmallInt: PutScalar(static_cast<int16_t>(v.int_value())); break;
    case ValueType::kInteger: PutScalar(static_cast<int32_t>(v.int_value())); break;
    case ValueType::kBigInt:
    case ValueType::kTimestamp: PutScalar(v.int_value()); break;
    case ValueType::kFloat: PutScalar(v.float_value()); break;
    case ValueType::kDecimal: PutScalar(v.decimal_value()); break;
    case ValueType::kVarchar:
    case ValueType::kVarbinary: {
      const std::string_view s = v.string_value();
      PutScalar(static_cast<uint32_t>(s.size()));
      Put(s.data(), s.size());
      break;
    }
    default: return Status(proto::ERROR_CODE_INTERNAL, "result column of unsupported type");
  }
  return Status::OK();
}

Status ResultWriter::AddRow(const Value* row, Arena* arena) {
  const size_t width = header_->types.size();
  const size_t row_start = buf_->size();
  PutScalar<uint32_t>(0);  // row_size
  const size_t bitmap_at = buf_->size();
  buf_->resize(bitmap_at + (width + 7) / 8, 0);
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
