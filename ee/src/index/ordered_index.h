// OrderedIndex: a B-tree of tuples ordered by key, then by row id, so equal
// keys (non-unique indexes, NULL keys) stay distinct entries in the same
// order on every replica, whatever the tuples' addresses. Serves
// equality on any key prefix, ranges, ordered scans in both directions, and
// MIN/MAX of a column after a group prefix.
//
// Thread model: partition-confined.
#ifndef PARTITA_INDEX_ORDERED_INDEX_H_
#define PARTITA_INDEX_ORDERED_INDEX_H_

#include <memory>

#include "absl/container/btree_set.h"
#include "index/table_index.h"

namespace partita {

// A search position: key prefix key[0 .. size), placed before (`after` =
// false) or after all tuples whose prefix equals it.
struct SearchPosition {
  const Value* key;
  int size;
  bool after;
};

class OrderedIndex final : public TableIndex {
 public:
  struct Compare {
    using is_transparent = void;
    const IndexKey* key;
    bool operator()(const char* a, const char* b) const {
      const int c = key->CompareTuples(a, b);
      return c != 0 ? c < 0 : key->schema().row_id(a) < key->schema().row_id(b);
    }
    bool operator()(const char* a, const SearchPosition& p) const {
      const int c = key->CompareTupleToKey(a, p.key, p.size);
      return c != 0 ? c < 0 : p.after;
    }
    bool operator()(const SearchPosition& p, const char* b) const {
      const int c = key->CompareTupleToKey(b, p.key, p.size);
      return c != 0 ? c > 0 : !p.after;
    }
  };
  using Tree = absl::btree_set<const char*, Compare>;

  OrderedIndex(std::string name, std::string constraint_name, IndexKey key, bool unique, bool primary_key);

  IndexKind kind() const override { return IndexKind::kOrdered; }
  Status Insert(const char* tuple) override;
  bool Remove(const char* tuple) override;
  const char* FindUnique(const Value* key) const override;
  std::unique_ptr<IndexCursor> NewCursor() const override;
  size_t entry_count() const override { return tree_.size(); }
  size_t memory_bytes() const override;

  const Tree& tree() const { return tree_; }

 private:
  Tree tree_;
};

}  // namespace partita

#endif  // PARTITA_INDEX_ORDERED_INDEX_H_
