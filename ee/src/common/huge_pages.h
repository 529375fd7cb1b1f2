// HugePages: anonymous memory mapped on a 2 MiB boundary that asks the kernel
// for transparent huge pages (madvise MADV_HUGEPAGE; honoured when its setting
// is "always" or "madvise", ordinary pages otherwise). For the large
// structures a partition probes at random (a hash index's tables): one TLB
// entry then covers 2 MiB instead of 4 KiB, so a random probe finds its
// address in the TLB instead of walking the page tables, the wait that
// dominated a Vote's lookups in a cluster (bench/cluster/RESULTS.md, "Huge
// pages for the hash tables, kept").
//
// The memory reads as zeros. A huge page faults in whole on its first touch
// (2 MiB zeroed at once): owners have the PageWarmer fault it in ahead of the
// writes that need it.
//
// Thread model: stateless; any thread.
#ifndef PARTITA_COMMON_HUGE_PAGES_H_
#define PARTITA_COMMON_HUGE_PAGES_H_

#include <cstddef>

namespace partita::huge_pages {

// The size of a huge page, and the alignment and granule of every mapping.
inline constexpr size_t kBytes = size_t{2} << 20;

// Maps `bytes` rounded up to whole huge pages on a kBytes boundary,
// read-write, zeros. Throws
// std::bad_alloc when the kernel refuses. REQUIRES: bytes > 0.
void* Map(size_t bytes);

// Unmaps what Map(bytes) returned.
void Unmap(void* data, size_t bytes);

}  // namespace partita::huge_pages

#endif  // PARTITA_COMMON_HUGE_PAGES_H_
