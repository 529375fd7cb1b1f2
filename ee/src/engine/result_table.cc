#include "partita/result_table.h"

#include <cstring>

#include "errors.pb.h"

namespace partita {

std::span<const uint8_t> ResultSet::table(int i) const {
  const size_t begin = table_offsets_[i];
  const size_t end = i + 1 < table_count() ? table_offsets_[i + 1] : bytes_.size();
  return {bytes_.data() + begin, end - begin};
}

void ResultSet::Clear() {
  bytes_.clear();
  table_offsets_.clear();
  write_hash_ = 0;
}

void ResultSet::SetTableCount() {
  const auto count = static_cast<uint32_t>(table_offsets_.size());
  if (bytes_.size() >= 4) std::memcpy(bytes_.data(), &count, 4);
}

namespace {

// Bounds-checked little-endian reader.
class Reader {
 public:
  explicit Reader(std::span<const uint8_t> b) : b_(b) {}
  template <typename T>
  bool Read(T* out) {
    if (pos_ + sizeof(T) > b_.size()) return false;
    std::memcpy(out, b_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  bool Skip(size_t n) {
    if (pos_ + n > b_.size()) return false;
    pos_ += n;
    return true;
  }
  const uint8_t* here() const { return b_.data() + pos_; }
  size_t pos() const { return pos_; }

 private:
  std::span<const uint8_t> b_;
  size_t pos_ = 0;
};

Status Malformed(const std::string& what) {
  return Status(proto::ERROR_CODE_BAD_REQUEST, "malformed result table: " + what);
}

// Whether `row` (null bitmap then values) holds exactly one value of each
// non-NULL column of types[0 .. columns), so Get() never reads past it.
bool RowIsWellFormed(std::span<const uint8_t> row, const ValueType* types, int columns) {
  Reader r(row);
  const uint8_t* bitmap = r.here();
  if (!r.Skip((static_cast<size_t>(columns) + 7) / 8)) return false;
  for (int c = 0; c < columns; ++c) {
    if (bitmap[c / 8] >> (c % 8) & 1) continue;
    if (IsVariableLengthType(types[c])) {
      uint32_t n;
      if (!r.Read(&n) || !r.Skip(n)) return false;
    } else {
      const int size = FixedSize(types[c]);
      if (size == 0 || !r.Skip(static_cast<size_t>(size))) return false;  // a non-NULL value of type NULL
    }
  }
  return r.pos() == row.size();
}

// Reads one column descriptor (type, name) at `r`; false if truncated or
// of an unknown type.
bool ReadColumn(Reader* r, uint8_t* type, std::string_view* name) {
  uint16_t name_size;
  if (!r->Read(type) || !r->Read(&name_size) || !IsKnownValueType(*type)) return false;
  const uint8_t* bytes = r->here();
  if (!r->Skip(name_size)) return false;
  *name = std::string_view(reinterpret_cast<const char*>(bytes), name_size);
  return true;
}

}  // namespace

void ResultTableReader::AddType(ValueType t) {
  if (column_count_ < kInlineColumns) {
    inline_types_[column_count_++] = t;
    return;
  }
  if (more_types_.empty()) more_types_.assign(inline_types_, inline_types_ + kInlineColumns);
  more_types_.push_back(t);
  ++column_count_;
}

void ResultTableReader::AddRow(const uint8_t* row) {
  if (row_count_ < kInlineRows) {
    inline_rows_[row_count_++] = row;
    return;
  }
  if (more_rows_.empty()) more_rows_.assign(inline_rows_, inline_rows_ + kInlineRows);
  more_rows_.push_back(row);
  ++row_count_;
}

Result<ResultTableReader> ResultTableReader::Parse(std::span<const uint8_t> table) {
  ResultTableReader out;
  uint32_t size;
  if (table.size() < 4) return Malformed("truncated header");
  std::memcpy(&size, table.data(), 4);
  if (size > table.size() - 4) return Malformed("table_size " + std::to_string(size) + " past the end");
  // Everything below reads only the table's own bytes.
  Reader r(table.first(size_t{size} + 4));
  uint16_t columns;
  if (!r.Skip(4) || !r.Read(&columns)) return Malformed("truncated header");
  const uint8_t* descriptors = r.here();
  for (int c = 0; c < columns; ++c) {
    uint8_t type;
    std::string_view name;
    if (!ReadColumn(&r, &type, &name)) return Malformed("bad column descriptor");
    out.AddType(static_cast<ValueType>(type));
  }
  out.column_bytes_ = {descriptors, r.here()};
  uint32_t rows;
  if (!r.Read(&rows)) return Malformed("missing row count");
  for (uint32_t i = 0; i < rows; ++i) {
    uint32_t row_size;
    if (!r.Read(&row_size)) return Malformed("truncated row");
    const uint8_t* row = r.here();
    if (!r.Skip(row_size)) return Malformed("row past the end");
    if (!RowIsWellFormed({row, row_size}, out.types(), out.column_count_)) {
      return Malformed("row " + std::to_string(i) + " does not match its size and columns");
    }
    out.AddRow(row);
  }
  if (r.pos() != size_t{size} + 4) return Malformed("bytes after the last row");
  return out;
}

std::string_view ResultTableReader::column_name(int c) const {
  // Parse checked every descriptor: the walk stays inside the table.
  Reader r(column_bytes_);
  uint8_t type;
  std::string_view name;
  for (int i = 0; i <= c; ++i) ReadColumn(&r, &type, &name);
  return name;
}

Value ResultTableReader::Get(int64_t row, int column) const {
  const ValueType* types = this->types();
  const uint8_t* const bitmap_start = this->row(row);
  const uint8_t* p = bitmap_start;
  const int bitmap = (column_count() + 7) / 8;
  if (p[column / 8] >> (column % 8) & 1) return Value::Null(types[column]);
  p += bitmap;
  auto skip = [&](int c) {
    if (bitmap_start[c / 8] >> (c % 8) & 1) return;
    if (IsVariableLengthType(types[c])) {
      uint32_t n;
      std::memcpy(&n, p, 4);
      p += 4 + n;
    } else {
      p += FixedSize(types[c]);
    }
  };
  for (int c = 0; c < column; ++c) skip(c);
  const ValueType t = types[column];
  auto read = [&](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  switch (t) {
    case ValueType::kTinyInt: return Value::TinyInt(read(int8_t{}));
    case ValueType::kBoolean: return Value::Boolean(read(int8_t{}) != 0);
    case ValueType::kSmallInt: return Value::SmallInt(read(int16_t{}));
    case ValueType::kInteger: return Value::Integer(read(int32_t{}));
    case ValueType::kBigInt: return Value::BigInt(read(int64_t{}));
    case ValueType::kTimestamp: return Value::Timestamp(read(int64_t{}));
    case ValueType::kFloat: return Value::Float(read(double{}));
    case ValueType::kDecimal: return Value::Decimal(read(int128{}));
    case ValueType::kVarchar:
    case ValueType::kVarbinary: {
      const uint32_t n = read(uint32_t{});
      return Value::Bytes(t, {reinterpret_cast<const char*>(p + 4), n});
    }
    default: return Value();
  }
}

void ResultTableReader::GetRow(int64_t row, Value* out) const {
  const ValueType* types = this->types();
  const uint8_t* bitmap = this->row(row);
  const uint8_t* p = bitmap + (column_count() + 7) / 8;
  for (int c = 0; c < column_count(); ++c) {
    const ValueType t = types[c];
    if (bitmap[c / 8] >> (c % 8) & 1) {
      out[c] = Value::Null(t);
      continue;
    }
    auto read = [&](auto v) {
      std::memcpy(&v, p, sizeof v);
      p += sizeof v;
      return v;
    };
    switch (t) {
      case ValueType::kTinyInt: out[c] = Value::TinyInt(read(int8_t{})); break;
      case ValueType::kBoolean: out[c] = Value::Boolean(read(int8_t{}) != 0); break;
      case ValueType::kSmallInt: out[c] = Value::SmallInt(read(int16_t{})); break;
      case ValueType::kInteger: out[c] = Value::Integer(read(int32_t{})); break;
      case ValueType::kBigInt: out[c] = Value::BigInt(read(int64_t{})); break;
      case ValueType::kTimestamp: out[c] = Value::Timestamp(read(int64_t{})); break;
      case ValueType::kFloat: out[c] = Value::Float(read(double{})); break;
      case ValueType::kDecimal: out[c] = Value::Decimal(read(int128{})); break;
      case ValueType::kVarchar:
      case ValueType::kVarbinary: {
        const uint32_t n = read(uint32_t{});
        out[c] = Value::Bytes(t, {reinterpret_cast<const char*>(p), n});
        p += n;
        break;
      }
      default: out[c] = Value(); break;
    }
  }
}

std::string ResultTableReader::ToString() const {
  std::string out;
  for (int64_t r = 0; r < row_count(); ++r) {
    for (int c = 0; c < column_count(); ++c) {
      if (c > 0) out += '|';
      out += Get(r, c).ToString();
    }
    out += '\n';
  }
  return out;
}

}  // namespace partita
