// HashIndex: equality index over any key types, unique or not.
//
// An open-addressing table (linear probing, backward-shift deletion, 70%
// load) of distinct keys. It grows without a stall: past 70% load a table
// twice the size takes over, and every later Insert or Remove moves
// kMigrateSlots slots of the old table into it (a lookup looks in both
// until the old one is empty), so no single operation rehashes more than a
// bounded number of keys however large the index. Each slot holds the key's hash, its first tuple
// (the one with the smallest row id) and, only when the key has several
// tuples, a B-tree of the others ordered by row id — so inserting, removing
// and finding stay cheap however many rows share a key, and a key's tuples
// are always returned in row-id order: the same on every replica, whatever
// the tuples' addresses. A unique index stores several tuples under one key
// only for keys with a NULL column (SQL: NULLs never conflict).
//
// Ownership: the index owns its slots and duplicate sets (a slot's `rest`,
// deleted with the slot), never the tuples.
// Thread model: partition-confined.
#ifndef PARTITA_INDEX_HASH_INDEX_H_
#define PARTITA_INDEX_HASH_INDEX_H_

#include <memory>
#include <vector>

#include "absl/container/btree_set.h"
#include "index/table_index.h"
#include "index/zeroed_array.h"

namespace partita {

class HashIndex final : public TableIndex {
 public:
  using TableIndex::TableIndex;
  HashIndex(const HashIndex&) = delete;
  HashIndex& operator=(const HashIndex&) = delete;
  HashIndex(HashIndex&&) = default;
  ~HashIndex() override;

  IndexKind kind() const override { return IndexKind::kHash; }
  Status Insert(const char* tuple) override;
  bool Remove(const char* tuple) override;
  const char* FindUnique(const Value* key) const override;
  std::unique_ptr<IndexCursor> NewCursor() const override;
  size_t entry_count() const override { return entries_; }
  size_t memory_bytes() const override;

  // Old-table slots each Insert or Remove moves into the new table while
  // the index grows. With 70% load, growth ends long before the new table
  // fills: a table of n slots is drained after n / kMigrateSlots writes.
  static constexpr size_t kMigrateSlots = 16;
  // Bytes of a drained old table given back to the kernel per write, so
  // that freeing a large one is spread out too.
  static constexpr size_t kReleaseBytes = size_t{1} << 20;
  // Whether an old table is still being drained (for tests).
  bool growing() const { return !old_.empty(); }

 private:
  friend class HashIndexCursor;

  // Orders tuples of one table by row id.
  struct ByRowId {
    const TupleSchema* schema;
    bool operator()(const char* a, const char* b) const { return schema->row_id(a) < schema->row_id(b); }
  };
  using TupleSet = absl::btree_set<const char*, ByRowId>;

  // All zero bytes is an empty slot (ZeroedArray relies on it). Plain data:
  // moving a slot copies it and clears the source; `rest` is owned by
  // whichever slot holds it.
  struct Slot {
    uint64_t hash;
    const char* first;  // smallest row id; nullptr = empty slot
    TupleSet* rest;     // the key's other tuples, if any
  };

  using Slots = ZeroedArray<Slot>;

  // A slot of the old table whose entry has moved to the new one: probes
  // in the old table pass over it (its chains stay intact), nothing stops
  // there.
  static const char* Moved() { return reinterpret_cast<const char*>(1); }

  // Returns the slot holding `key`'s entry (in either table), or nullptr.
  const Slot* FindKey(const Value* key, uint64_t hash) const;
  // Returns the slot of the key of `tuple` in the new table, or the empty
  // slot where it goes; an entry for it still in the old table is moved
  // over first.
  size_t Probe(const char* tuple, uint64_t hash);
  // Adds `tuple` to an occupied slot, keeping `first` the smallest row id.
  void AddDuplicate(Slot& s, const char* tuple);
  // Starts growing when the new key would pass 70% load; moves a bounded
  // number of old slots while growing.
  void BeforeWrite();
  // Moves old_[i]'s entry (if any) into slots_ and leaves Moved() behind.
  void MigrateSlot(size_t i);
  // The bounded work of one write while growing: kMigrateSlots slots moved,
  // or kReleaseBytes of a drained table released.
  void GrowthStep();
  void EraseSlot(size_t i);

  Slots slots_ = Slots(16);
  size_t mask_ = 15;
  Slots old_;                 // the table being drained; empty when not growing
  size_t old_mask_ = 0;
  size_t migrated_ = 0;       // old_ slots before this index have been moved
  Slots drained_;             // a drained old table being released
  size_t released_ = 0;       // bytes of drained_ released so far
  size_t keys_ = 0;           // distinct keys, in both tables
  size_t entries_ = 0;        // tuples
  size_t duplicate_sets_ = 0; // slots with a `rest` set
};

}  // namespace partita

#endif  // PARTITA_INDEX_HASH_INDEX_H_
