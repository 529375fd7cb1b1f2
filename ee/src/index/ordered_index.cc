#include "index/ordered_index.h"

namespace partita {
namespace {

// Iterates [begin, end) forward or backward.
class OrderedIndexCursor final : public IndexCursor {
 public:
  explicit OrderedIndexCursor(const OrderedIndex* index) : tree_(&index->tree()) {}

  void SeekEqual(const Value* key, int n) override {
    begin_ = tree_->lower_bound(SearchPosition{key, n, false});
    end_ = tree_->lower_bound(SearchPosition{key, n, true});
    order_ = ScanOrder::kForward;
  }

  void SeekRange(const KeyBound& lower, const KeyBound& upper, ScanOrder order) override {
    begin_ = lower.size == 0 ? tree_->begin()
                             : tree_->lower_bound(SearchPosition{lower.key, lower.size, !lower.inclusive});
    end_ = upper.size == 0 ? tree_->end()
                           : tree_->lower_bound(SearchPosition{upper.key, upper.size, upper.inclusive});
    order_ = order;
    // An empty or inverted range: make begin == end.
    if (begin_ != tree_->end() && end_ != tree_->end() && tree_->key_comp()(*end_, *begin_)) end_ = begin_;
    if (begin_ == tree_->end()) end_ = begin_;
  }

  const char* Next() override {
    if (begin_ == end_) return nullptr;
    if (order_ == ScanOrder::kForward) return *begin_++;
    return *--end_;
  }

 private:
  const OrderedIndex::Tree* tree_;
  OrderedIndex::Tree::const_iterator begin_, end_;
  ScanOrder order_ = ScanOrder::kForward;
};

}  // namespace

OrderedIndex::OrderedIndex(std::string name, std::string constraint_name, IndexKey key, bool unique,
                           bool primary_key)
    : TableIndex(std::move(name), std::move(constraint_name), std::move(key), unique, primary_key),
      tree_(Compare{&this->key()}) {}

Status OrderedIndex::Insert(const char* tuple) {
  if (unique() && !key().HasNull(tuple)) {
    // Any entry with an equal key sorts right next to where `tuple` goes.
    auto it = tree_.lower_bound(tuple);
    if (it != tree_.end() && key().CompareTuples(*it, tuple) == 0) return DuplicateKeyError(tuple);
    if (it != tree_.begin() && key().CompareTuples(*std::prev(it), tuple) == 0) return DuplicateKeyError(tuple);
    tree_.insert(it, tuple);
    return Status::OK();
  }
  tree_.insert(tuple);
  return Status::OK();
}

bool OrderedIndex::Remove(const char* tuple) { return tree_.erase(tuple) > 0; }

const char* OrderedIndex::FindUnique(const Value* key_values) const {
  auto it = tree_.lower_bound(SearchPosition{key_values, key().size(), false});
  if (it == tree_.end() || key().CompareTupleToKey(*it, key_values, key().size()) != 0) return nullptr;
  return *it;
}

std::unique_ptr<IndexCursor> OrderedIndex::NewCursor() const { return std::make_unique<OrderedIndexCursor>(this); }

size_t OrderedIndex::memory_bytes() const {
  // B-tree nodes hold ~256 bytes of pointers each; about 1.3x overhead.
  return tree_.size() * sizeof(const char*) * 13 / 10 + sizeof(Tree);
}

}  // namespace partita
