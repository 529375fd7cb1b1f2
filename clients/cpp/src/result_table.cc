#include "partita/client/result_table.h"

#include "answer.h"

#include <bit>
#include <cstring>
#include <stdexcept>

namespace partita::client {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the result format is little-endian; this reader copies values as they are");

constexpr int kDecimalScale = 12;

// Fixed size of a value of `type`, -1 for length-prefixed, 0 for unknown or NULL.
int FixedSize(uint8_t type) {
  switch (static_cast<ValueType>(type)) {
    case ValueType::kTinyInt:
    case ValueType::kBoolean: return 1;
    case ValueType::kSmallInt: return 2;
    case ValueType::kInteger: return 4;
    case ValueType::kBigInt:
    case ValueType::kFloat:
    case ValueType::kTimestamp: return 8;
    case ValueType::kDecimal: return 16;
    case ValueType::kVarchar:
    case ValueType::kVarbinary: return -1;
    case ValueType::kNull: return 0;
  }
  return 0;
}

bool IsInteger(ValueType t) {
  return t == ValueType::kTinyInt || t == ValueType::kSmallInt || t == ValueType::kInteger ||
         t == ValueType::kBigInt || t == ValueType::kBoolean;
}

template <typename T>
T Load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// A bounds-checked cursor over the table's bytes; every read checks first.
class Reader {
 public:
  Reader(std::string_view bytes) : data_(bytes.data()), end_(bytes.size()) {}

  size_t pos() const { return pos_; }
  void set_end(size_t end) { end_ = end; }
  size_t remaining() const { return end_ - pos_; }
  const char* at(size_t offset) const { return data_ + offset; }

  bool Has(size_t n) const { return remaining() >= n; }
  uint8_t U8() { return static_cast<uint8_t>(data_[pos_++]); }
  uint16_t U16() { auto v = Load<uint16_t>(data_ + pos_); pos_ += 2; return v; }
  uint32_t U32() { auto v = Load<uint32_t>(data_ + pos_); pos_ += 4; return v; }
  void Skip(size_t n) { pos_ += n; }

 private:
  const char* data_;
  size_t end_;
  size_t pos_ = 0;
};

Status Malformed(size_t offset, const std::string& what) {
  return Status(Status::Code::kMalformed,
                "result table: " + what + " at byte offset " + std::to_string(offset));
}

std::string DecimalText(__int128 units) {
  const bool negative = units < 0;
  unsigned __int128 m = negative ? -static_cast<unsigned __int128>(units) : units;
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  } while (m != 0);
  if (digits.size() <= kDecimalScale) digits.insert(0, kDecimalScale + 1 - digits.size(), '0');
  std::string text = digits.substr(0, digits.size() - kDecimalScale);
  std::string fraction = digits.substr(digits.size() - kDecimalScale);
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  if (!fraction.empty()) text += "." + fraction;
  return negative ? "-" + text : text;
}

}  // namespace

std::string_view ValueTypeName(ValueType type) {
  switch (type) {
    case ValueType::kNull: return "NULL";
    case ValueType::kTinyInt: return "TINYINT";
    case ValueType::kSmallInt: return "SMALLINT";
    case ValueType::kInteger: return "INTEGER";
    case ValueType::kBigInt: return "BIGINT";
    case ValueType::kFloat: return "FLOAT";
    case ValueType::kDecimal: return "DECIMAL";
    case ValueType::kVarchar: return "VARCHAR";
    case ValueType::kVarbinary: return "VARBINARY";
    case ValueType::kTimestamp: return "TIMESTAMP";
    case ValueType::kBoolean: return "BOOLEAN";
  }
  return "UNKNOWN";
}

namespace detail {

// Error texts are built only when a check fails: a well-formed table is
// parsed without making a string.
Status TableLayout::Parse(std::string_view table) {
  bytes = table;
  types.clear();
  names.clear();
  row_offsets.clear();
  value_offsets.clear();
  row_count = 0;
  Reader in(table);
  if (!in.Has(4)) return Malformed(0, "truncated table_size");
  const uint32_t size = in.U32();
  if (size != in.remaining()) {
    return Malformed(0, "table_size " + std::to_string(size) + " but " +
                            std::to_string(in.remaining()) + " bytes follow");
  }
  if (!in.Has(2)) return Malformed(in.pos(), "truncated column count");
  const uint16_t columns = in.U16();
  for (uint16_t c = 0; c < columns; ++c) {
    if (!in.Has(3)) return Malformed(in.pos(), "truncated descriptor of column " + std::to_string(c));
    const size_t type_at = in.pos();
    const uint8_t type = in.U8();
    if (FixedSize(type) == 0 && type != static_cast<uint8_t>(ValueType::kNull)) {
      return Malformed(type_at, "column " + std::to_string(c) + " has unknown type " + std::to_string(type));
    }
    const uint16_t name_size = in.U16();
    if (!in.Has(name_size)) return Malformed(in.pos(), "truncated name of column " + std::to_string(c));
    types.push_back(static_cast<ValueType>(type));
    names.emplace_back(in.at(in.pos()), name_size);
    in.Skip(name_size);
  }
  if (!in.Has(4)) return Malformed(in.pos(), "missing row count");
  const size_t rows_at = in.pos();
  const uint32_t rows = in.U32();
  if (rows > in.remaining() / 4) {
    return Malformed(rows_at, "row_count " + std::to_string(rows) + " exceeds what " +
                                  std::to_string(in.remaining()) + " bytes can hold");
  }
  const size_t bitmap_bytes = (columns + 7) / 8;
  row_offsets.reserve(rows);
  value_offsets.reserve(static_cast<size_t>(rows) * columns);
  const size_t table_end = table.size();
  for (uint32_t r = 0; r < rows; ++r) {
    auto row_name = [r] { return "row " + std::to_string(r); };
    if (!in.Has(4)) return Malformed(in.pos(), "truncated size of " + row_name());
    const uint32_t row_size = in.U32();
    if (row_size > in.remaining()) {
      return Malformed(in.pos() - 4, row_name() + " of " + std::to_string(row_size) + " bytes runs past the table");
    }
    const size_t row_end = in.pos() + row_size;
    in.set_end(row_end);
    if (!in.Has(bitmap_bytes)) return Malformed(in.pos(), row_name() + " is shorter than its NULL bitmap");
    const size_t bitmap = in.pos();
    row_offsets.push_back(static_cast<uint32_t>(bitmap));
    in.Skip(bitmap_bytes);
    for (uint16_t c = 0; c < columns; ++c) {
      if ((static_cast<uint8_t>(*in.at(bitmap + c / 8)) >> (c % 8)) & 1) {
        value_offsets.push_back(0);
        continue;
      }
      auto where = [&] { return row_name() + " column " + std::to_string(c); };
      const int fixed = FixedSize(static_cast<uint8_t>(types[c]));
      if (fixed == 0) return Malformed(in.pos(), where() + " has a non-NULL value of type NULL");
      value_offsets.push_back(static_cast<uint32_t>(in.pos()));
      size_t length = fixed;
      if (fixed < 0) {
        if (!in.Has(4)) return Malformed(in.pos(), where() + ": truncated length");
        length = in.U32();
      }
      if (!in.Has(length)) {
        return Malformed(in.pos(), where() + " runs past the row's " + std::to_string(row_size) + " bytes");
      }
      in.Skip(length);
    }
    if (in.remaining() != 0) {
      return Malformed(in.pos(), row_name() + " has " + std::to_string(in.remaining()) + " bytes after its last value");
    }
    in.set_end(table_end);
  }
  if (in.remaining() != 0) {
    return Malformed(in.pos(), std::to_string(in.remaining()) + " bytes after the last row");
  }
  row_count = rows;
  return Status::Ok();
}

}  // namespace detail

Result<ResultTable> ResultTable::Parse(std::string bytes) {
  auto* answer = new detail::Answer(std::weak_ptr<AnswerPool>());
  answer->Retain();
  const Status parsed = answer->LoadOne(std::move(bytes));
  if (!parsed.ok()) {
    answer->Release();
    return parsed;
  }
  ResultTable table = answer->tables()[0];  // a counted copy
  answer->Release();
  return table;
}

ResultTable::ResultTable(detail::Answer* home, const detail::TableLayout* layout, bool counted)
    : home_(home), layout_(layout), counted_(counted) {
  if (counted_) home_->Retain();
}

ResultTable::ResultTable(const ResultTable& other) : home_(other.home_), layout_(other.layout_), counted_(true) {
  home_->Retain();
}

ResultTable::ResultTable(ResultTable&& other) noexcept
    : home_(other.home_), layout_(other.layout_), counted_(other.counted_) {
  other.counted_ = false;
}

ResultTable& ResultTable::operator=(const ResultTable& other) {
  if (this == &other) return *this;
  other.home_->Retain();
  Drop();
  home_ = other.home_;
  layout_ = other.layout_;
  counted_ = true;
  return *this;
}

ResultTable& ResultTable::operator=(ResultTable&& other) noexcept {
  if (this == &other) return *this;
  Drop();
  home_ = other.home_;
  layout_ = other.layout_;
  counted_ = other.counted_;
  other.counted_ = false;
  return *this;
}

ResultTable::~ResultTable() { Drop(); }

void ResultTable::Drop() {
  if (counted_) home_->Release();
  counted_ = false;
}

size_t ResultTable::column_count() const { return layout_->types.size(); }
size_t ResultTable::row_count() const { return layout_->row_count; }
std::string_view ResultTable::bytes() const { return layout_->bytes; }

ValueType ResultTable::column_type(size_t column) const {
  CheckColumn(column);
  return layout_->types[column];
}

std::string_view ResultTable::column_name(size_t column) const {
  CheckColumn(column);
  return layout_->names[column];
}

int ResultTable::ColumnIndex(std::string_view name) const {
  for (size_t c = 0; c < layout_->names.size(); ++c) {
    if (layout_->names[c] == name) return static_cast<int>(c);
  }
  auto lower = [](char ch) { return ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a') : ch; };
  for (size_t c = 0; c < layout_->names.size(); ++c) {
    const std::string_view n = layout_->names[c];
    if (n.size() != name.size()) continue;
    bool same = true;
    for (size_t i = 0; i < n.size() && same; ++i) same = lower(n[i]) == lower(name[i]);
    if (same) return static_cast<int>(c);
  }
  return -1;
}

void ResultTable::CheckColumn(size_t column) const {
  if (column >= layout_->types.size()) {
    throw std::out_of_range("column " + std::to_string(column) + " of a table with " +
                            std::to_string(layout_->types.size()) + " columns");
  }
}

bool ResultTable::IsNull(size_t row, size_t column) const { return ValueAtAnyType(row, column) == 0; }

uint32_t ResultTable::ValueAtAnyType(size_t row, size_t column) const {
  CheckColumn(column);
  if (row >= layout_->row_count) {
    throw std::out_of_range("row " + std::to_string(row) + " of a table with " +
                            std::to_string(layout_->row_count) + " rows");
  }
  return layout_->value_offsets[row * layout_->types.size() + column];
}

uint32_t ResultTable::ValueAt(size_t row, size_t column, ValueType expected) const {
  const uint32_t at = ValueAtAnyType(row, column);
  if (layout_->types[column] != expected) {
    throw std::invalid_argument("column " + std::to_string(column) + " is " +
                                std::string(ValueTypeName(layout_->types[column])) + ", not " +
                                std::string(ValueTypeName(expected)));
  }
  return at;
}

int64_t ResultTable::GetInt64(size_t row, size_t column) const {
  const uint32_t at = ValueAtAnyType(row, column);
  const ValueType type = layout_->types[column];
  if (!IsInteger(type)) {
    throw std::invalid_argument("column " + std::to_string(column) + " is " +
                                std::string(ValueTypeName(type)) + ", not an integer type");
  }
  if (at == 0) return 0;
  const char* p = layout_->bytes.data() + at;
  switch (FixedSize(static_cast<uint8_t>(type))) {
    case 1: return Load<int8_t>(p);
    case 2: return Load<int16_t>(p);
    case 4: return Load<int32_t>(p);
    default: return Load<int64_t>(p);
  }
}

double ResultTable::GetDouble(size_t row, size_t column) const {
  if (layout_->types.size() > column && IsInteger(layout_->types[column])) return static_cast<double>(GetInt64(row, column));
  const uint32_t at = ValueAt(row, column, ValueType::kFloat);
  return at == 0 ? 0.0 : Load<double>(layout_->bytes.data() + at);
}

std::string ResultTable::GetDecimal(size_t row, size_t column) const {
  const uint32_t at = ValueAt(row, column, ValueType::kDecimal);
  return at == 0 ? std::string() : DecimalText(Load<__int128>(layout_->bytes.data() + at));
}

std::string_view ResultTable::GetString(size_t row, size_t column) const {
  const uint32_t at = ValueAt(row, column, ValueType::kVarchar);
  if (at == 0) return {};
  return std::string_view(layout_->bytes.data() + at + 4, Load<uint32_t>(layout_->bytes.data() + at));
}

std::string_view ResultTable::GetBytes(size_t row, size_t column) const {
  if (layout_->types.size() > column && layout_->types[column] == ValueType::kVarchar) return GetString(row, column);
  const uint32_t at = ValueAt(row, column, ValueType::kVarbinary);
  if (at == 0) return {};
  return std::string_view(layout_->bytes.data() + at + 4, Load<uint32_t>(layout_->bytes.data() + at));
}

int64_t ResultTable::GetTimestampMicros(size_t row, size_t column) const {
  const uint32_t at = ValueAt(row, column, ValueType::kTimestamp);
  return at == 0 ? 0 : Load<int64_t>(layout_->bytes.data() + at);
}

Param ResultTable::Get(size_t row, size_t column) const {
  if (IsNull(row, column)) return Param();
  switch (layout_->types[column]) {
    case ValueType::kFloat: return Param(GetDouble(row, column));
    case ValueType::kDecimal: return Param::Decimal(GetDecimal(row, column));
    case ValueType::kVarchar: return Param(std::string(GetString(row, column)));
    case ValueType::kVarbinary: return Param::Bytes(std::string(GetBytes(row, column)));
    case ValueType::kTimestamp: return Param::Timestamp(GetTimestampMicros(row, column));
    default: return Param(GetInt64(row, column));
  }
}

}  // namespace partita::client
