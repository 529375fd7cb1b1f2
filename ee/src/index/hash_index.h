// HashIndex: equality index over any key types, unique or not.
//
// An open-addressing table (linear probing, backward-shift deletion, 70%
// load) of distinct keys. It grows without a stall: past 70% load a table
// twice the size takes over, and every later Insert or Remove moves
// kMigrateSlots slots of the old table into it (a lookup looks in both
// until the old one is empty), so no single operation rehashes more than a
// bounded number of keys however large the index. Each slot is 16 bytes
// (four to a cache line): the key's hash, so that a probe touches a tuple
// only when the hashes match, and the key's tuple; a key with several tuples
// points instead to a Duplicates record holding the first (smallest row id)
// and a B-tree of the others ordered by row id — so inserting, removing and
// finding stay cheap however many rows share a key, and a key's tuples are
// always returned in row-id order: the same on every replica, whatever the
// tuples' addresses. A unique index stores several tuples under one key only
// for keys with a NULL column (SQL: NULLs never conflict).
//
// Ownership: the index owns its slots and Duplicates records (deleted with
// their slot, or when their key is down to one tuple), never the tuples.
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
  // Has the CPU start fetching the slot a lookup of `key` probes first (in
  // both tables while growing), without waiting for it: a later FindKey of
  // the same key then finds it in cache. Reads nothing; any key is safe.
  void Prefetch(const Value* key) const;
  // Takes a table large enough for `keys` keys at the load that makes it
  // grow (70%), so no growth starts before the keys-th key.
  void Reserve(size_t keys) override;
  size_t entry_count() const override { return entries_; }
  // Slots of the table keys go to (for tests).
  size_t capacity() const { return slots_.size(); }
  size_t memory_bytes() const override;

  // Old-table slots each Insert or Remove moves into the new table while
  // the index grows. With 70% load, growth ends long before the new table
  // fills: a table of n slots is drained after n / kMigrateSlots writes.
  static constexpr size_t kMigrateSlots = 16;
  // Load (in tenths) at which the next growth's table is prepared and
  // warmed; the growth itself starts at 7 tenths.
  static constexpr size_t kPrepareTenths = 6;
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

  // A key's tuples when it has several.
  struct Duplicates {
    const char* first;  // smallest row id
    TupleSet rest;      // the others; empty only for a moment
  };

  // All zero bytes is an empty slot (ZeroedArray relies on it). Plain data:
  // moving a slot copies it and clears the source; a Duplicates record is
  // owned by whichever slot points to it.
  struct Slot {
    uint64_t hash;
    // The key's only tuple, its Duplicates with kDuplicatesTag added, kMoved,
    // or 0 = empty slot. Tuples and Duplicates are 8-byte aligned, so the
    // low bit is free.
    uintptr_t entry;
  };
  static_assert(sizeof(Slot) == 16, "four slots to a cache line");
  static constexpr uintptr_t kDuplicatesTag = 1;

  static uintptr_t Entry(const char* tuple) { return reinterpret_cast<uintptr_t>(tuple); }
  static Duplicates* DuplicatesOf(const Slot& s) {
    return (s.entry & kDuplicatesTag) == 0 ? nullptr : reinterpret_cast<Duplicates*>(s.entry - kDuplicatesTag);
  }
  // The key's tuple with the smallest row id. REQUIRES: an occupied slot.
  static const char* First(const Slot& s) {
    const Duplicates* d = DuplicatesOf(s);
    return d == nullptr ? reinterpret_cast<const char*>(s.entry) : d->first;
  }

  using Slots = ZeroedArray<Slot>;

  // A slot of the old table whose entry has moved to the new one: probes
  // in the old table pass over it (its chains stay intact), nothing stops
  // there. Even, so not a tagged Duplicates; never a tuple's address.
  static constexpr uintptr_t kMoved = 2;

  // Returns the slot holding `key`'s entry (in either table), or nullptr.
  const Slot* FindKey(const Value* key, uint64_t hash) const;
  // Returns the slot of the key of `tuple` in the new table, or the empty
  // slot where it goes; an entry for it still in the old table is moved
  // over first.
  size_t Probe(const char* tuple, uint64_t hash);
  // Adds `tuple` to an occupied slot, keeping the first the smallest row id.
  void AddDuplicate(Slot& s, const char* tuple);
  // Removes `tuple` from slot i; returns false when the key does not hold it.
  bool RemoveFromSlot(size_t i, const char* tuple);
  // Starts growing when the new key would pass 70% load; moves a bounded
  // number of old slots while growing.
  void BeforeWrite();
  // Moves old_[i]'s entry (if any) into slots_ and leaves kMoved behind.
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
  Slots next_;                // the next growth's table, prepared and warmed at 60% load
  size_t released_ = 0;       // bytes of drained_ released so far
  size_t keys_ = 0;           // distinct keys, in both tables
  size_t entries_ = 0;        // tuples
  size_t duplicate_sets_ = 0; // Duplicates records
};

}  // namespace partita

#endif  // PARTITA_INDEX_HASH_INDEX_H_
