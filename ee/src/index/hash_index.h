// HashIndex: equality index over any key types, unique or not.
//
// An open-addressing table (linear probing, backward-shift deletion, 70%
// load) of distinct keys. Each slot holds the key's hash, its first tuple
// (the one with the smallest row id) and, only when the key has several
// tuples, a B-tree of the others ordered by row id — so inserting, removing
// and finding stay cheap however many rows share a key, and a key's tuples
// are always returned in row-id order: the same on every replica, whatever
// the tuples' addresses. A unique index stores several tuples under one key
// only for keys with a NULL column (SQL: NULLs never conflict).
//
// Ownership: the index owns its slots and duplicate sets, never the tuples.
// Thread model: partition-confined.
#ifndef PARTITA_INDEX_HASH_INDEX_H_
#define PARTITA_INDEX_HASH_INDEX_H_

#include <memory>
#include <vector>

#include "absl/container/btree_set.h"
#include "index/table_index.h"

namespace partita {

class HashIndex final : public TableIndex {
 public:
  using TableIndex::TableIndex;

  IndexKind kind() const override { return IndexKind::kHash; }
  Status Insert(const char* tuple) override;
  bool Remove(const char* tuple) override;
  const char* FindUnique(const Value* key) const override;
  std::unique_ptr<IndexCursor> NewCursor() const override;
  size_t entry_count() const override { return entries_; }
  size_t memory_bytes() const override;

 private:
  friend class HashIndexCursor;

  // Orders tuples of one table by row id.
  struct ByRowId {
    const TupleSchema* schema;
    bool operator()(const char* a, const char* b) const { return schema->row_id(a) < schema->row_id(b); }
  };
  using TupleSet = absl::btree_set<const char*, ByRowId>;

  struct Slot {
    uint64_t hash = 0;
    const char* first = nullptr;     // smallest row id; nullptr = empty slot
    std::unique_ptr<TupleSet> rest;  // the key's other tuples, if any
  };

  // Returns the slot holding `key`'s entry, or nullptr.
  const Slot* FindKey(const Value* key, uint64_t hash) const;
  // Returns the slot of the key of `tuple`, or the empty slot where it goes.
  size_t Probe(const char* tuple, uint64_t hash) const;
  // Adds `tuple` to an occupied slot, keeping `first` the smallest row id.
  void AddDuplicate(Slot& s, const char* tuple);
  void Grow();
  void EraseSlot(size_t i);

  std::vector<Slot> slots_ = std::vector<Slot>(16);
  size_t mask_ = 15;
  size_t keys_ = 0;     // occupied slots
  size_t entries_ = 0;  // tuples
};

}  // namespace partita

#endif  // PARTITA_INDEX_HASH_INDEX_H_
