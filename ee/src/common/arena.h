// Arena: bump allocator for memory that lives as long as one statement or one
// transaction. Reset() frees everything at once and keeps the first block, so
// a steady workload allocates nothing after warm-up.
// Thread model: partition-confined (owned by one Engine).
#ifndef PARTITA_COMMON_ARENA_H_
#define PARTITA_COMMON_ARENA_H_

#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

namespace partita {

class Arena {
 public:
  explicit Arena(size_t block_size = 64 * 1024) : block_size_(block_size) {}
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  // Returns `n` bytes aligned to 16, valid until Reset() or destruction.
  char* Allocate(size_t n) {
    n = (n + 15) & ~size_t{15};
    if (n > remaining_) NewBlock(n);
    char* p = cursor_;
    cursor_ += n;
    remaining_ -= n;
    return p;
  }

  // Copies `s` into the arena and returns a view of the copy.
  std::string_view Copy(std::string_view s) {
    if (s.empty()) return {};
    char* p = Allocate(s.size());
    std::memcpy(p, s.data(), s.size());
    return {p, s.size()};
  }

  // Constructs a T in the arena. T's destructor is never run: T must be
  // trivially destructible or own nothing.
  template <typename T, typename... Args>
  T* New(Args&&... args) {
    return new (Allocate(sizeof(T))) T(std::forward<Args>(args)...);
  }

  // Frees every allocation; keeps the first block for reuse.
  void Reset();

  // Bytes reserved from the system.
  size_t bytes_reserved() const { return bytes_reserved_; }

 private:
  void NewBlock(size_t at_least);

  size_t block_size_;
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::vector<size_t> block_sizes_;
  char* cursor_ = nullptr;
  size_t remaining_ = 0;
  size_t bytes_reserved_ = 0;
};

}  // namespace partita

#endif  // PARTITA_COMMON_ARENA_H_
