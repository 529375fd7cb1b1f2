#include "common/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace partita::huge_pages {
namespace {

// The bytes mapped for a request of `bytes`: whole huge pages.
size_t MappedBytes(size_t bytes) { return (bytes + kBytes - 1) & ~(kBytes - 1); }

}  // namespace

void* Map(size_t bytes) {
  // Over-map by one huge page, then unmap the slack on either side of the
  // aligned range.
  const size_t length = MappedBytes(bytes);
  void* p = mmap(nullptr, length + kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  const auto raw = reinterpret_cast<uintptr_t>(p);
  const uintptr_t aligned = (raw + kBytes - 1) & ~(kBytes - 1);
  if (aligned > raw) munmap(p, aligned - raw);
  const uintptr_t slack_end = raw + length + kBytes;
  if (slack_end > aligned + length) munmap(reinterpret_cast<void*>(aligned + length), slack_end - aligned - length);
#ifdef MADV_HUGEPAGE
  // A refusal (huge pages off) leaves ordinary pages: nothing to handle.
  madvise(reinterpret_cast<void*>(aligned), length, MADV_HUGEPAGE);
#endif
  return reinterpret_cast<void*>(aligned);
}

void Unmap(void* data, size_t bytes) { munmap(data, MappedBytes(bytes)); }

}  // namespace partita::huge_pages
