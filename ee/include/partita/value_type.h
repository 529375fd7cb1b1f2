// ValueType: the SQL types of DESIGN.md, numbered as proto::ValueType (the
// single source shared with Java; value_type.cc checks every number against
// it at compile time), plus per-type facts the engine needs. This header
// needs no generated protobuf header.
#ifndef PARTITA_VALUE_TYPE_H_
#define PARTITA_VALUE_TYPE_H_

#include <cstdint>
#include <string_view>

namespace partita {

namespace proto {
enum ValueType : int;  // the protobuf enum (plan.proto), declared opaquely
}  // namespace proto

enum class ValueType : uint8_t {
  kInvalid = 0,
  kNull = 1,
  kTinyInt = 2,
  kSmallInt = 3,
  kInteger = 4,
  kBigInt = 5,
  kFloat = 6,
  kDecimal = 7,
  kVarchar = 8,
  kVarbinary = 9,
  kTimestamp = 10,
  kBoolean = 11,
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
