// Helpers for executors that keep rows beyond one Next() call: deep copies
// into the statement arena, and hashing/equality of rows for grouping and
// DISTINCT (NULL equals NULL there, as SQL grouping requires).
#ifndef PARTITA_EXEC_ROW_UTILS_H_
#define PARTITA_EXEC_ROW_UTILS_H_

#include <cstdint>

#include "common/arena.h"
#include "partita/value.h"

namespace partita {

// Copies `row[0 .. width)` into `arena`, strings included. Returns the copy.
inline Value* CopyRow(const Value* row, int width, Arena* arena) {
  Value* out = reinterpret_cast<Value*>(arena->Allocate(sizeof(Value) * width));
  for (int i = 0; i < width; ++i) {
    out[i] = row[i];
    if (!row[i].is_null() && IsVariableLengthType(row[i].type())) {
      out[i] = Value::Bytes(row[i].type(), arena->Copy(row[i].string_value()));
    }
  }
  return out;
}

// Grouping equality: NULLs equal each other.
inline bool GroupValuesEqual(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  return CompareValues(a, b) == 0;
}

inline uint64_t HashRow(const Value* row, int width) {
  uint64_t h = 0;
  for (int i = 0; i < width; ++i) h = HashCombine(h, HashValue(row[i]));
  return h;
}

inline bool RowsEqual(const Value* a, const Value* b, int width) {
  for (int i = 0; i < width; ++i) {
    if (!GroupValuesEqual(a[i], b[i])) return false;
  }
  return true;
}

// A row stored in a hash set or map by pointer.
struct RowRef {
  const Value* values;
  int width;
};
struct RowRefHash {
  size_t operator()(const RowRef& r) const { return HashRow(r.values, r.width); }
};
struct RowRefEq {
  bool operator()(const RowRef& a, const RowRef& b) const { return RowsEqual(a.values, b.values, a.width); }
};

}  // namespace partita

#endif  // PARTITA_EXEC_ROW_UTILS_H_
