#include "common/arena.h"

#include <algorithm>

namespace partita {

void Arena::NewBlock(size_t at_least) {
  const size_t size = std::max(block_size_, at_least);
  blocks_.push_back(std::make_unique<char[]>(size));
  block_sizes_.push_back(size);
  bytes_reserved_ += size;
  cursor_ = blocks_.back().get();
  remaining_ = size;
}

void Arena::Reset() {
  if (blocks_.empty()) return;
  if (blocks_.size() > 1) {
    // Keep only the first block; big statements do not pin memory forever.
    for (size_t i = 1; i < block_sizes_.size(); ++i) bytes_reserved_ -= block_sizes_[i];
    blocks_.resize(1);
    block_sizes_.resize(1);
  }
  cursor_ = blocks_.front().get();
  remaining_ = block_sizes_.front();
}

}  // namespace partita
