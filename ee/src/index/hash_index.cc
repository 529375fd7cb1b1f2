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
    slot_ = index_->FindKey(key, index_->key().HashKey(key));
    first_pending_ = slot_ != nullptr;
    if (slot_ != nullptr && slot_->rest != nullptr) {
      it_ = slot_->rest->begin();
      end_ = slot_->rest->end();
    }
  }

  void SeekRange(const KeyBound&, const KeyBound&, ScanOrder) override {
    PARTITA_ASSERT(false, "range scan on a hash index; the planner must pick an ordered index");
  }

  const char* Next() override {
    if (slot_ == nullptr) return nullptr;
    if (first_pending_) {
      first_pending_ = false;
      return slot_->first;
    }
    if (slot_->rest == nullptr || it_ == end_) return nullptr;
    return *it_++;
  }

 private:
  const HashIndex* index_;
  const HashIndex::Slot* slot_ = nullptr;
  bool first_pending_ = false;
  HashIndex::TupleSet::const_iterator it_, end_;
};

const HashIndex::Slot* HashIndex::FindKey(const Value* key, uint64_t hash) const {
  for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
    const Slot& s = slots_[i];
    if (s.first == nullptr) return nullptr;
    if (s.hash == hash && this->key().TupleEqualsKey(s.first, key)) return &s;
  }
}

size_t HashIndex::Probe(const char* tuple, uint64_t hash) const {
  for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
    const Slot& s = slots_[i];
    if (s.first == nullptr) return i;
    if (s.hash == hash && key().CompareTuples(s.first, tuple) == 0) return i;
  }
}

Status HashIndex::Insert(const char* tuple) {
  if ((keys_ + 1) * 10 > slots_.size() * 7) Grow();
  const uint64_t hash = key().HashTuple(tuple);
  Slot& s = slots_[Probe(tuple, hash)];
  if (s.first == nullptr) {
    s.hash = hash;
    s.first = tuple;
    ++keys_;
  } else {
    if (unique() && !key().HasNull(tuple)) return DuplicateKeyError(tuple);
    AddDuplicate(s, tuple);
  }
  ++entries_;
  return Status::OK();
}

void HashIndex::AddDuplicate(Slot& s, const char* tuple) {
  if (s.rest == nullptr) s.rest = std::make_unique<TupleSet>(ByRowId{&key().schema()});
  // A new row has the largest row id; a row back from an undo or a key
  // change may be older than `first`.
  if (key().schema().row_id(tuple) < key().schema().row_id(s.first)) std::swap(tuple, s.first);
  s.rest->insert(tuple);
}

bool HashIndex::Remove(const char* tuple) {
  const size_t i = Probe(tuple, key().HashTuple(tuple));
  Slot& s = slots_[i];
  if (s.first == nullptr) return false;
  if (s.first == tuple) {
    if (s.rest == nullptr || s.rest->empty()) {
      EraseSlot(i);
    } else {
      // The next smallest row id takes its place.
      s.first = *s.rest->begin();
      s.rest->erase(s.rest->begin());
    }
  } else if (s.rest == nullptr || s.rest->erase(tuple) == 0) {
    return false;
  }
  --entries_;
  return true;
}

void HashIndex::EraseSlot(size_t i) {
  slots_[i] = Slot{};
  --keys_;
  // Backward-shift: pull later members of the cluster into the hole when
  // their home slot does not lie strictly between the hole and them.
  for (size_t j = (i + 1) & mask_; slots_[j].first != nullptr; j = (j + 1) & mask_) {
    const size_t home = slots_[j].hash & mask_;
    const bool home_between = (i <= j) ? (i < home && home <= j) : (i < home || home <= j);
    if (home_between) continue;
    slots_[i] = std::move(slots_[j]);
    slots_[j] = Slot{};
    i = j;
  }
}

void HashIndex::Grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  mask_ = slots_.size() - 1;
  for (Slot& s : old) {
    if (s.first == nullptr) continue;
    size_t i = s.hash & mask_;
    while (slots_[i].first != nullptr) i = (i + 1) & mask_;
    slots_[i] = std::move(s);
  }
}

const char* HashIndex::FindUnique(const Value* key_values) const {
  const Slot* s = FindKey(key_values, key().HashKey(key_values));
  return s == nullptr ? nullptr : s->first;
}

std::unique_ptr<IndexCursor> HashIndex::NewCursor() const { return std::make_unique<HashIndexCursor>(this); }

size_t HashIndex::memory_bytes() const {
  size_t bytes = slots_.size() * sizeof(Slot);
  for (const Slot& s : slots_) {
    // B-tree nodes: about 1.3x the pointers they hold.
    if (s.rest != nullptr) bytes += sizeof(TupleSet) + s.rest->size() * sizeof(const char*) * 13 / 10;
  }
  return bytes;
}

}  // namespace partita
