#include "tuple/tuple_schema.h"

#include <cstdlib>

#include "common/assert.h"

namespace partita {

StringBlob* StringBlob::Create(std::string_view s) {
  auto* blob = static_cast<StringBlob*>(std::malloc(AllocationSize(static_cast<uint32_t>(s.size()))));
  PARTITA_ASSERT(blob != nullptr, "out of memory allocating a string");
  blob->size = static_cast<uint32_t>(s.size());
  if (!s.empty()) std::memcpy(blob->data, s.data(), s.size());
  return blob;
}

TupleSchema::TupleSchema(std::vector<ColumnLayout> columns) : columns_(std::move(columns)) {
  uint32_t offset = 1 + static_cast<uint32_t>((columns_.size() + 7) / 8);
  for (size_t i = 0; i < columns_.size(); ++i) {
    ColumnLayout& c = columns_[i];
    PARTITA_ASSERT(c.type != ValueType::kInvalid && c.type != ValueType::kNull, "column type must be concrete");
    c.offset = offset;
    if (IsVariableLengthType(c.type)) {
      PARTITA_ASSERT(c.max_length > 0, "string column needs a length limit");
      const uint64_t max_bytes =
          c.type == ValueType::kVarchar ? 4ULL * static_cast<uint64_t>(c.max_length) : static_cast<uint64_t>(c.max_length);
      c.inline_string = max_bytes <= kMaxInlineBytes;
      if (c.inline_string) {
        c.inline_capacity = static_cast<uint32_t>(max_bytes);
        offset += 1 + c.inline_capacity;
      } else {
        out_of_line_columns_.push_back(static_cast<int>(i));
        offset += sizeof(StringBlob*);
      }
    } else {
      offset += static_cast<uint32_t>(FixedSize(c.type));
    }
  }
  row_id_offset_ = offset;
  tuple_size_ = (offset + kRowIdBytes + 7) & ~7u;  // 8-byte aligned tuples
}

Value TupleSchema::Get(const char* tuple, int col) const {
  const ColumnLayout& c = columns_[col];
  if (IsNull(tuple, col)) return Value::Null(c.type);
  const char* p = tuple + c.offset;
  switch (c.type) {
    case ValueType::kTinyInt: return Value::TinyInt(static_cast<int8_t>(*p));
    case ValueType::kSmallInt: {
      int16_t x;
      std::memcpy(&x, p, 2);
      return Value::SmallInt(x);
    }
    case ValueType::kInteger: {
      int32_t x;
      std::memcpy(&x, p, 4);
      return Value::Integer(x);
    }
    case ValueType::kBigInt:
    case ValueType::kTimestamp: {
      int64_t x;
      std::memcpy(&x, p, 8);
      return Value::Int(c.type, x);
    }
    case ValueType::kFloat: {
      double x;
      std::memcpy(&x, p, 8);
      return Value::Float(x);
    }
    case ValueType::kDecimal: {
      int128 x;
      std::memcpy(&x, p, 16);
      return Value::Decimal(x);
    }
    case ValueType::kVarchar:
    case ValueType::kVarbinary: {
      if (c.inline_string) return Value::Bytes(c.type, {p + 1, static_cast<uint8_t>(*p)});
      const StringBlob* blob = GetBlob(tuple, c);
      return Value::Bytes(c.type, {blob->data, blob->size});
    }
    default: PARTITA_ASSERT(false, "unexpected column type");
  }
}

size_t TupleSchema::Set(char* tuple, int col, const Value& v) const {
  const ColumnLayout& c = columns_[col];
  char* p = tuple + c.offset;
  uint8_t& null_byte = reinterpret_cast<uint8_t&>(tuple[1 + col / 8]);
  if (v.is_null()) {
    null_byte |= static_cast<uint8_t>(1u << (col % 8));
    std::memset(p, 0, SlotSize(c));
    return 0;
  }
  null_byte &= static_cast<uint8_t>(~(1u << (col % 8)));
  switch (c.type) {
    case ValueType::kTinyInt: *p = static_cast<char>(v.int_value()); return 0;
    case ValueType::kSmallInt: {
      const auto x = static_cast<int16_t>(v.int_value());
      std::memcpy(p, &x, 2);
      return 0;
    }
    case ValueType::kInteger: {
      const auto x = static_cast<int32_t>(v.int_value());
      std::memcpy(p, &x, 4);
      return 0;
    }
    case ValueType::kBigInt:
    case ValueType::kTimestamp: {
      const int64_t x = v.int_value();
      std::memcpy(p, &x, 8);
      return 0;
    }
    case ValueType::kFloat: {
      const double x = v.float_value();
      std::memcpy(p, &x, 8);
      return 0;
    }
    case ValueType::kDecimal: {
      const int128 x = v.decimal_value();
      std::memcpy(p, &x, 16);
      return 0;
    }
    case ValueType::kVarchar:
    case ValueType::kVarbinary: {
      const std::string_view s = v.string_value();
      if (c.inline_string) {
        PARTITA_ASSERT(s.size() <= c.inline_capacity, "inline string exceeds its slot; validate first");
        *p = static_cast<char>(s.size());
        std::memmove(p + 1, s.data(), s.size());
        std::memset(p + 1 + s.size(), 0, c.inline_capacity - s.size());
        return 0;
      }
      StringBlob* blob = StringBlob::Create(s);
      std::memcpy(p, &blob, sizeof blob);
      return StringBlob::AllocationSize(blob->size);
    }
    default: PARTITA_ASSERT(false, "unexpected column type");
  }
}

uint32_t TupleSchema::SlotSize(const ColumnLayout& c) {
  if (!IsVariableLengthType(c.type)) return static_cast<uint32_t>(FixedSize(c.type));
  return c.inline_string ? 1 + c.inline_capacity : static_cast<uint32_t>(sizeof(StringBlob*));
}

void TupleSchema::AddImage(const char* tuple, StableHash* h) const {
  uint32_t from = 0;
  for (const int col : out_of_line_columns_) {
    const ColumnLayout& c = columns_[col];
    h->AddBytes(tuple + from, c.offset - from);
    if (!IsNull(tuple, col)) {
      const StringBlob* blob = GetBlob(tuple, c);
      h->AddBytes(blob->data, blob->size);
    }
    from = c.offset + sizeof(StringBlob*);
  }
  h->AddBytes(tuple + from, row_id_offset_ - from);
}

size_t TupleSchema::FreeBlobs(char* tuple) const {
  size_t freed = 0;
  for (const int col : out_of_line_columns_) {
    StringBlob* blob = GetBlob(tuple, columns_[col]);
    if (blob == nullptr || IsNull(tuple, col)) continue;
    freed += StringBlob::AllocationSize(blob->size);
    StringBlob::Destroy(blob);
    std::memset(tuple + columns_[col].offset, 0, sizeof blob);
  }
  return freed;
}

size_t TupleSchema::BlobBytes(const char* tuple) const {
  size_t bytes = 0;
  for (const int col : out_of_line_columns_) {
    const StringBlob* blob = GetBlob(tuple, columns_[col]);
    if (blob != nullptr && !IsNull(tuple, col)) bytes += StringBlob::AllocationSize(blob->size);
  }
  return bytes;
}

}  // namespace partita
