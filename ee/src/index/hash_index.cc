#include "index/hash_index.h"

#include <utility>

#include "common/assert.h"

namespace partita {

// Walks the tuples of one key: `first`, then the `rest` set (row-id order).
class HashIndexCursor final : public IndexCursor {
 public:
  explicit HashIndexCursor(const HashIndex* index) : index_(index) {}

  void SeekEqual(const Value* key, int n) override {
    PARTITA_ASSERT(n == index_->key().size(), "hash index lookups need every key column");
    const HashIndex::Slot* slot = index_->FindKey(key, index_->key().HashKey(key));
    first_ = slot == nullptr ? nullptr : HashIndex::First(*slot);
    rest_ = slot == nullptr ? nullptr : HashIndex::DuplicatesOf(*slot);
    if (rest_ != nullptr) {
      it_ = rest_->rest.begin();
      end_ = rest_->rest.end();
    }
  }

  void SeekRange(const KeyBound&, const KeyBound&, ScanOrder) override {
    PARTITA_ASSERT(false, "range scan on a hash index; the planner must pick an ordered index");
  }

  const char* Next() override {
    if (first_ != nullptr) {
      const char* t = first_;
      first_ = nullptr;
      return t;
    }
    if (rest_ == nullptr || it_ == end_) return nullptr;
    return *it_++;
  }

 private:
  const HashIndex* index_;
  const char* first_ = nullptr;                    // not returned yet
  const HashIndex::Duplicates* rest_ = nullptr;    // the key's others, if any
  HashIndex::TupleSet::const_iterator it_, end_;
};

const HashIndex::Slot* HashIndex::FindKey(const Value* key, uint64_t hash) const {
  for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
    const Slot& s = slots_[i];
    if (s.entry == 0) break;
    if (s.hash == hash && this->key().TupleEqualsKey(First(s), key)) return &s;
  }
  if (old_.empty()) return nullptr;
  for (size_t i = hash & old_mask_;; i = (i + 1) & old_mask_) {
    const Slot& s = old_[i];
    if (s.entry == 0) return nullptr;
    if (s.entry != kMoved && s.hash == hash && this->key().TupleEqualsKey(First(s), key)) return &s;
  }
}

void HashIndex::Prefetch(const Value* key_values) const {
  const uint64_t hash = key().HashKey(key_values);
  __builtin_prefetch(&slots_[hash & mask_]);
  if (!old_.empty()) __builtin_prefetch(&old_[hash & old_mask_]);
}

size_t HashIndex::Probe(const char* tuple, uint64_t hash) {
  if (!old_.empty()) {
    for (size_t i = hash & old_mask_;; i = (i + 1) & old_mask_) {
      const Slot& s = old_[i];
      if (s.entry == 0) break;
      if (s.entry != kMoved && s.hash == hash && key().CompareTuples(First(s), tuple) == 0) {
        MigrateSlot(i);
        break;
      }
    }
  }
  for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
    const Slot& s = slots_[i];
    if (s.entry == 0) return i;
    if (s.hash == hash && key().CompareTuples(First(s), tuple) == 0) return i;
  }
}

void HashIndex::BeforeWrite() {
  if (next_.empty() && (keys_ + 1) * 10 > slots_.size() * kPrepareTenths &&
      slots_.size() * 2 * sizeof(Slot) >= Slots::kMapBytes) {
    // The next growth's table, allocated a tenth of the load early and
    // faulted in by the warmer meanwhile, so that the migration's first
    // writes find its pages mapped. Only large (mapped) tables: a small one
    // is calloc'ed, already touched.
    next_ = Slots(slots_.size() * 2);
    next_.Warm();
  }
  if ((keys_ + 1) * 10 > slots_.size() * 7) {
    // A growth ends long before the new table reaches 70% (kMigrateSlots'
    // comment), so there is never a third table.
    PARTITA_ASSERT(old_.empty(), "a hash index filled its new table before draining the old one");
    old_ = std::move(slots_);
    old_mask_ = mask_;
    slots_ = next_.empty() ? Slots(old_.size() * 2) : std::move(next_);
    mask_ = slots_.size() - 1;
    migrated_ = 0;
  }
  GrowthStep();
}

void HashIndex::GrowthStep() {
  for (size_t n = 0; n < kMigrateSlots && !old_.empty(); ++n) MigrateSlot(migrated_);
  if (drained_.empty()) return;
  released_ += kReleaseBytes;
  if (released_ >= drained_.size() * sizeof(Slot)) {
    drained_ = Slots();  // its pages are gone: unmapping is cheap now
  } else {
    drained_.DiscardPages(released_ - kReleaseBytes, kReleaseBytes);
  }
}

void HashIndex::MigrateSlot(size_t i) {
  Slot& s = old_[i];
  if (s.entry != 0 && s.entry != kMoved) {
    size_t j = s.hash & mask_;
    while (slots_[j].entry != 0) j = (j + 1) & mask_;
    slots_[j] = s;
    s = Slot{0, kMoved};
  }
  // The sweep moves forward from slot 0; an entry moved ahead of it (by
  // Probe) is passed over when the sweep reaches it.
  while (migrated_ < old_.size() && (old_[migrated_].entry == 0 || old_[migrated_].entry == kMoved)) {
    ++migrated_;
  }
  if (migrated_ == old_.size()) {
    // Every entry moved: no Duplicates left to delete. A large table is
    // released a piece per write (GrowthStep), a small one at once.
    if (old_.mapped()) {
      drained_ = std::move(old_);
      released_ = 0;
    }
    old_ = Slots();
    old_mask_ = 0;
    migrated_ = 0;
  }
}

Status HashIndex::Insert(const char* tuple) {
  BeforeWrite();
  const uint64_t hash = key().HashTuple(tuple);
  Slot& s = slots_[Probe(tuple, hash)];
  if (s.entry == 0) {
    PARTITA_ASSERT((Entry(tuple) & kDuplicatesTag) == 0, "tuples are 8-byte aligned");
    s.hash = hash;
    s.entry = Entry(tuple);
    ++keys_;
  } else {
    if (unique() && !key().HasNull(tuple)) return DuplicateKeyError(tuple);
    AddDuplicate(s, tuple);
  }
  ++entries_;
  return Status::OK();
}

void HashIndex::AddDuplicate(Slot& s, const char* tuple) {
  Duplicates* d = DuplicatesOf(s);
  if (d == nullptr) {
    d = new Duplicates{First(s), TupleSet(ByRowId{&key().schema()})};
    s.entry = reinterpret_cast<uintptr_t>(d) + kDuplicatesTag;
    ++duplicate_sets_;
  }
  // A new row has the largest row id; a row back from an undo or a key
  // change may be older than the first.
  if (key().schema().row_id(tuple) < key().schema().row_id(d->first)) std::swap(tuple, d->first);
  d->rest.insert(tuple);
}

bool HashIndex::Remove(const char* tuple) {
  GrowthStep();
  const size_t i = Probe(tuple, key().HashTuple(tuple));
  if (slots_[i].entry == 0 || !RemoveFromSlot(i, tuple)) return false;
  --entries_;
  return true;
}

bool HashIndex::RemoveFromSlot(size_t i, const char* tuple) {
  Slot& s = slots_[i];
  Duplicates* d = DuplicatesOf(s);
  if (d == nullptr) {
    if (s.entry != Entry(tuple)) return false;
    EraseSlot(i);
    return true;
  }
  if (d->first == tuple) {
    // The next smallest row id takes its place.
    d->first = *d->rest.begin();
    d->rest.erase(d->rest.begin());
  } else if (d->rest.erase(tuple) == 0) {
    return false;
  }
  if (d->rest.empty()) {
    // Down to one tuple: the slot holds it again.
    s.entry = Entry(d->first);
    delete d;
    --duplicate_sets_;
  }
  return true;
}

void HashIndex::EraseSlot(size_t i) {
  if (Duplicates* d = DuplicatesOf(slots_[i]); d != nullptr) {
    delete d;
    --duplicate_sets_;
  }
  slots_[i] = Slot{};
  --keys_;
  // Backward-shift: pull later members of the cluster into the hole when
  // their home slot does not lie strictly between the hole and them. Only
  // the new table is ever erased from (an old entry moves over first).
  for (size_t j = (i + 1) & mask_; slots_[j].entry != 0; j = (j + 1) & mask_) {
    const size_t home = slots_[j].hash & mask_;
    const bool home_between = (i <= j) ? (i < home && home <= j) : (i < home || home <= j);
    if (home_between) continue;
    slots_[i] = slots_[j];
    slots_[j] = Slot{};
    i = j;
  }
}

HashIndex::~HashIndex() {
  for (Slots* table : {&slots_, &old_}) {
    for (Slot& s : *table) delete DuplicatesOf(s);
  }
}

const char* HashIndex::FindUnique(const Value* key_values) const {
  const Slot* s = FindKey(key_values, key().HashKey(key_values));
  return s == nullptr ? nullptr : First(*s);
}

void HashIndex::Reserve(size_t keys) {
  if (entries_ != 0 || !old_.empty()) return;
  size_t size = slots_.size();
  while (keys * 10 > size * 7) size *= 2;  // BeforeWrite's test for the keys-th key
  if (size == slots_.size()) return;
  slots_ = Slots(size);
  mask_ = size - 1;
}

std::unique_ptr<IndexCursor> HashIndex::NewCursor() const { return std::make_unique<HashIndexCursor>(this); }

size_t HashIndex::memory_bytes() const {
  // Counted, not walked: stats are read while the partition serves calls.
  // The tuples beyond each key's first sit in B-trees whose nodes hold
  // about 1.3x the pointers they store.
  const size_t duplicates = entries_ - keys_;
  return (slots_.size() + old_.size() + drained_.size() + next_.size()) * sizeof(Slot) + duplicate_sets_ * sizeof(Duplicates) +
         duplicates * sizeof(const char*) * 13 / 10;
}

}  // namespace partita
