// ValueType: the SQL types of DESIGN.md, derived from proto::ValueType (the
// single source shared with Java), plus per-type facts the engine needs.
#ifndef PARTITA_VALUE_TYPE_H_
#define PARTITA_VALUE_TYPE_H_

#include <cstdint>
#include <string_view>

#include "plan.pb.h"

namespace partita {

enum class ValueType : uint8_t {
  kInvalid = proto::VALUE_TYPE_UNSPECIFIED,
  kNull = proto::VALUE_TYPE_NULL,
  kTinyInt = proto::VALUE_TYPE_TINYINT,
  kSmallInt = proto::VALUE_TYPE_SMALLINT,
  kInteger = proto::VALUE_TYPE_INTEGER,
  kBigInt = proto::VALUE_TYPE_BIGINT,
  kFloat = proto::VALUE_TYPE_FLOAT,
  kDecimal = proto::VALUE_TYPE_DECIMAL,
  kVarchar = proto::VALUE_TYPE_VARCHAR,
  kVarbinary = proto::VALUE_TYPE_VARBINARY,
  kTimestamp = proto::VALUE_TYPE_TIMESTAMP,
  kBoolean = proto::VALUE_TYPE_BOOLEAN,
};

inline ValueType FromProto(proto::ValueType t) { return static_cast<ValueType>(t); }
inline proto::ValueType ToProto(ValueType t) { return static_cast<proto::ValueType>(t); }

// Returns true iff `t` is a valid proto value type (not UNSPECIFIED, known).
bool IsKnownValueType(int t);

// SQL name of the type ("BIGINT").
std::string_view TypeName(ValueType t);

// TINYINT, SMALLINT, INTEGER, BIGINT.
inline bool IsIntegerType(ValueType t) {
  return t == ValueType::kTinyInt || t == ValueType::kSmallInt || t == ValueType::kInteger ||
         t == ValueType::kBigInt;
}
inline bool IsNumericType(ValueType t) {
  return IsIntegerType(t) || t == ValueType::kFloat || t == ValueType::kDecimal;
}
// VARCHAR, VARBINARY.
inline bool IsVariableLengthType(ValueType t) {
  return t == ValueType::kVarchar || t == ValueType::kVarbinary;
}
// Values held in Value::int_ (integers, TIMESTAMP, BOOLEAN).
inline bool IsInt64Backed(ValueType t) {
  return IsIntegerType(t) || t == ValueType::kTimestamp || t == ValueType::kBoolean;
}

// Bytes a value of a fixed-width type takes in a tuple and on the wire.
// REQUIRES: !IsVariableLengthType(t).
int FixedSize(ValueType t);

// Inclusive range of an integer type.
int64_t IntegerMin(ValueType t);
int64_t IntegerMax(ValueType t);

}  // namespace partita

#endif  // PARTITA_VALUE_TYPE_H_
