// ZeroedArray<T>: a fixed-size array whose memory starts as zero bytes,
// without writing them: large arrays come straight from mmap, whose pages
// the kernel zeroes when first touched, so creating a 800 MB hash table
// costs nothing up front and its cost is spread over the writes that touch
// it (a page fault per 4 KiB), instead of one long memset.
//
// REQUIRES: T is an implicit-lifetime type whose all-zero bytes are a valid
// value (the hash index's Slot: hash 0, null pointers). Elements are never
// constructed or destroyed; the owner of anything they point to frees it.
//
// A mapped array can be warmed (Warm): the process's PageWarmer faults its
// pages in on a background thread, so later writes find them mapped.
//
// An array of kHugeBytes or more is on huge pages (common/huge_pages.h): a
// random probe of a large hash table then finds its address in the TLB. A
// huge page faults in whole, so such arrays should be warmed ahead of their
// first write.
//
// Thread model: like a plain array; owned by one thread.
#ifndef PARTITA_INDEX_ZEROED_ARRAY_H_
#define PARTITA_INDEX_ZEROED_ARRAY_H_

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

#include "common/huge_pages.h"
#include "common/page_warmer.h"

namespace partita {

template <typename T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  // Arrays of at least this many bytes are mapped, not allocated.
  static constexpr size_t kMapBytes = size_t{1} << 20;
  // Mapped arrays of at least this many bytes are on huge pages.
  static constexpr size_t kHugeBytes = huge_pages::kBytes;

  ZeroedArray() = default;
  explicit ZeroedArray(size_t n) : size_(n) {
    const size_t bytes = n * sizeof(T);
    if (bytes >= kHugeBytes) {
      data_ = static_cast<T*>(huge_pages::Map(bytes));
    } else if (bytes >= kMapBytes) {
      void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      data_ = static_cast<T*>(p);
    } else if (n > 0) {
      data_ = static_cast<T*>(std::calloc(n, sizeof(T)));
      if (data_ == nullptr) throw std::bad_alloc();
    }
  }
  ZeroedArray(ZeroedArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        warm_ticket_(std::exchange(other.warm_ticket_, 0)) {}
  ZeroedArray& operator=(ZeroedArray&& other) noexcept {
    if (this != &other) {
      Release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      warm_ticket_ = std::exchange(other.warm_ticket_, 0);
    }
    return *this;
  }
  ZeroedArray(const ZeroedArray&) = delete;
  ZeroedArray& operator=(const ZeroedArray&) = delete;
  ~ZeroedArray() { Release(); }

  // Whether the array is mapped (large), so that DiscardPages applies.
  bool mapped() const { return size_ * sizeof(T) >= kMapBytes; }

  // Has the process's PageWarmer fault in every page of a mapped array in
  // the background (a small one is allocated with calloc, already touched).
  // Costs no time here; the memory is committed as the warmer goes.
  void Warm() {
    if (mapped() && warm_ticket_ == 0) warm_ticket_ = PageWarmer::Instance().Warm(data_, size_ * sizeof(T));
  }

  // Gives the pages of bytes [from, from + bytes) (rounded inward to whole
  // pages) back to the kernel; they read as zeros afterwards. Lets an owner
  // release a large array a piece at a time instead of in one munmap, whose
  // cost grows with the pages touched. REQUIRES: mapped().
  void DiscardPages(size_t from, size_t bytes) {
    StopWarming();  // or the warmer could fault discarded pages back in
    const size_t page = 4096;
    const auto base = reinterpret_cast<uintptr_t>(data_);
    const uintptr_t start = (base + from + page - 1) & ~(page - 1);
    const uintptr_t end = std::min(base + from + bytes, base + size_ * sizeof(T)) & ~(page - 1);
    if (end > start) madvise(reinterpret_cast<void*>(start), end - start, MADV_DONTNEED);
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

 private:
  void StopWarming() {
    if (warm_ticket_ != 0) PageWarmer::Instance().Cancel(std::exchange(warm_ticket_, 0));
  }

  void Release() {
    StopWarming();
    if (data_ == nullptr) return;
    const size_t bytes = size_ * sizeof(T);
    if (bytes >= kHugeBytes) {
      huge_pages::Unmap(data_, bytes);
    } else if (bytes >= kMapBytes) {
      munmap(data_, bytes);
    } else {
      std::free(data_);
    }
    data_ = nullptr;
    size_ = 0;
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  PageWarmer::Ticket warm_ticket_ = 0;  // 0 = not being warmed
};

}  // namespace partita

#endif  // PARTITA_INDEX_ZEROED_ARRAY_H_
