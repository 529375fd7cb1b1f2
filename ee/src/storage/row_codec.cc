#include "storage/row_codec.h"

#include "errors.pb.h"

namespace partita {
namespace {

template <typename T>
void Put(std::string* out, T x) {
  RowCodec::Append(out, x);
}

template <typename T>
bool Take(std::string_view* in, T* x) {
  return RowCodec::Take(in, x);
}

Status Truncated(std::string_view what, const ColumnLayout* column) {
  return Status(proto::ERROR_CODE_BAD_REQUEST,
                std::string(what) + ": the row ends early" + (column ? " in column " + column->name : ""));
}

// Reads the value of `c` (known present) into `*v`; false when the bytes end.
bool TakeValue(const ColumnLayout& c, std::string_view* in, Value* v) {
  if (IsVariableLengthType(c.type)) {
    uint32_t size = 0;
    if (!Take(in, &size) || in->size() < size) return false;
    *v = Value::Bytes(c.type, in->substr(0, size));
    in->remove_prefix(size);
    return true;
  }
  if (c.type == ValueType::kFloat) {
    double d = 0;
    if (!Take(in, &d)) return false;
    *v = Value::Float(d);
    return true;
  }
  if (c.type == ValueType::kDecimal) {
    int128 d = 0;
    if (!Take(in, &d)) return false;
    *v = Value::Decimal(d);
    return true;
  }
  int64_t i = 0;
  if (!Take(in, &i)) return false;
  *v = Value::Int(c.type, i);
  return true;
}

}  // namespace

void RowCodec::Encode(const TupleSchema& schema, const char* tuple, std::string* out) {
  Put<uint64_t>(out, schema.row_id(tuple));
  for (int col = 0; col < schema.column_count(); ++col) {
    const ColumnLayout& c = schema.column(col);
    if (schema.IsNull(tuple, col)) {
      out->push_back(0);
      continue;
    }
    out->push_back(1);
    const Value v = schema.Get(tuple, col);
    if (IsVariableLengthType(c.type)) {
      const std::string_view s = v.string_value();
      Put<uint32_t>(out, static_cast<uint32_t>(s.size()));
      out->append(s);
    } else if (c.type == ValueType::kFloat) {
      Put<double>(out, v.float_value());
    } else if (c.type == ValueType::kDecimal) {
      Put<int128>(out, v.decimal_value());
    } else {
      Put<int64_t>(out, v.int_value());
    }
  }
}

Status RowCodec::Decode(const TupleSchema& schema, std::string_view* in, RowId* row_id, Value* values,
                        std::string_view what) {
  uint64_t id = 0;
  if (!Take(in, &id)) return Truncated(what, nullptr);
  *row_id = id;
  for (int col = 0; col < schema.column_count(); ++col) {
    const ColumnLayout& c = schema.column(col);
    uint8_t present = 0;
    if (!Take(in, &present)) return Truncated(what, &c);
    if (present > 1) {
      return Status(proto::ERROR_CODE_BAD_REQUEST, std::string(what) + ": column " + c.name +
                                                       " has presence byte " + std::to_string(present) +
                                                       " (0 or 1 expected)");
    }
    if (present == 0) {
      values[col] = Value::Null(c.type);
      continue;
    }
    if (!TakeValue(c, in, &values[col])) return Truncated(what, &c);
  }
  return Status::OK();
}

}  // namespace partita
