// IndexKey: which tuple columns form an index key, and how keys hash and
// compare — between two tuples, or between a tuple and a search key (an
// array of Values already converted to the key columns' types).
//
// Ordering: NULL sorts before every value; otherwise CompareValues.
// Thread model: immutable; shared freely.
#ifndef PARTITA_INDEX_INDEX_KEY_H_
#define PARTITA_INDEX_INDEX_KEY_H_

#include <vector>

#include "partita/value.h"
#include "tuple/tuple_schema.h"

namespace partita {

class IndexKey {
 public:
  IndexKey(const TupleSchema* schema, std::vector<int> columns) : schema_(schema), columns_(std::move(columns)) {}

  int size() const { return static_cast<int>(columns_.size()); }
  int column(int i) const { return columns_[i]; }
  const std::vector<int>& columns() const { return columns_; }
  const TupleSchema& schema() const { return *schema_; }

  Value Get(const char* tuple, int i) const { return schema_->Get(tuple, columns_[i]); }

  // Returns true iff any key column of `tuple` is NULL.
  bool HasNull(const char* tuple) const {
    for (const int c : columns_) {
      if (schema_->IsNull(tuple, c)) return true;
    }
    return false;
  }

  uint64_t HashTuple(const char* tuple) const {
    uint64_t h = 0;
    for (int i = 0; i < size(); ++i) h = HashCombine(h, HashValue(Get(tuple, i)));
    return h;
  }
  // REQUIRES: `key` holds size() values.
  uint64_t HashKey(const Value* key) const {
    uint64_t h = 0;
    for (int i = 0; i < size(); ++i) h = HashCombine(h, HashValue(key[i]));
    return h;
  }

  static int CompareOne(const Value& a, const Value& b) {
    if (a.is_null() || b.is_null()) return static_cast<int>(b.is_null()) - static_cast<int>(a.is_null());
    return CompareValues(a, b);
  }

  // Compares the first `n` key columns of two tuples.
  int CompareTuples(const char* a, const char* b) const {
    for (int i = 0; i < size(); ++i) {
      const int c = CompareOne(Get(a, i), Get(b, i));
      if (c != 0) return c;
    }
    return 0;
  }
  // Compares the first `n` key columns of `tuple` with key[0 .. n).
  int CompareTupleToKey(const char* tuple, const Value* key, int n) const {
    for (int i = 0; i < n; ++i) {
      const int c = CompareOne(Get(tuple, i), key[i]);
      if (c != 0) return c;
    }
    return 0;
  }
  // Equality as a unique constraint sees it (NULL = NULL here: callers skip
  // NULL keys before asking).
  bool TupleEqualsKey(const char* tuple, const Value* key) const {
    return CompareTupleToKey(tuple, key, size()) == 0;
  }

 private:
  const TupleSchema* schema_;
  std::vector<int> columns_;
};

}  // namespace partita

#endif  // PARTITA_INDEX_INDEX_KEY_H_
