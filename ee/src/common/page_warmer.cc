#include "common/page_warmer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>

namespace partita {
namespace {

#if !defined(__x86_64__)
#ifdef MADV_POPULATE_WRITE
constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
constexpr int kPopulateWrite = 23;  // Linux's value, for older C library headers
#endif
#endif

// Faults in the pages of [begin, end) as writes would, leaving their
// contents as they are. Returns false when this build or kernel cannot.
//
// On x86-64 each page takes an atomic OR of zero into its first word: a
// write fault handled under the lock of that mapping alone, so a thread of
// the process that maps or unmaps memory meanwhile does not wait on it
// (madvise MADV_POPULATE_WRITE holds the process's whole memory-map lock,
// which made one huge page's fault an insert's stall). The atomic
// read-modify-write cannot lose a concurrent store of the owner. Elsewhere,
// madvise (Linux 5.14+).
bool FaultInForWrite(uintptr_t begin, uintptr_t end, uintptr_t page) {
#if defined(__x86_64__)
  for (uintptr_t p = begin; p < end; p += page) {
    asm volatile("lock orq $0, %0" : "+m"(*reinterpret_cast<uint64_t*>(p)) : : "memory");
  }
  return true;
#else
  (void)page;
  return !(madvise(reinterpret_cast<void*>(begin), end - begin, kPopulateWrite) != 0 && errno == EINVAL);
#endif
}

uintptr_t PageSize() {
  static const auto size = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace

PageWarmer& PageWarmer::Instance() {
  // Never destroyed: the thread may still wait on it while statics die.
  static PageWarmer* const warmer = new PageWarmer();
  return *warmer;
}

PageWarmer::Ticket PageWarmer::Warm(void* data, size_t bytes) {
  if (bytes == 0) return 0;
  const uintptr_t page = PageSize();
  const auto begin = reinterpret_cast<uintptr_t>(data) & ~(page - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes + page - 1) & ~(page - 1);
  std::lock_guard<std::mutex> lock(mu_);
  if (!available_) return 0;
  if (!started_) {
    std::thread([this] { Run(); }).detach();
    started_ = true;
  }
  queue_.push_back(Request{++last_ticket_, begin, end});
  work_.notify_one();
  return last_ticket_;
}

void PageWarmer::Cancel(Ticket ticket) {
  if (ticket == 0) return;
  std::unique_lock<std::mutex> lock(mu_);
  auto it = std::find_if(queue_.begin(), queue_.end(), [ticket](const Request& r) { return r.ticket == ticket; });
  if (it != queue_.end()) queue_.erase(it);
  step_.wait(lock, [&] { return in_flight_ != ticket; });
}

void PageWarmer::Drain() {
  std::unique_lock<std::mutex> lock(mu_);
  step_.wait(lock, [&] { return queue_.empty() && in_flight_ == 0; });
}

uint64_t PageWarmer::warmed_bytes() {
  std::lock_guard<std::mutex> lock(mu_);
  return warmed_bytes_;
}

bool PageWarmer::available() {
  std::lock_guard<std::mutex> lock(mu_);
  return available_;
}

void PageWarmer::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    work_.wait(lock, [&] { return !queue_.empty(); });
    const Request r = queue_.front();
    const uintptr_t n = std::min<uintptr_t>(kStepBytes, r.end - r.next);
    in_flight_ = r.ticket;
    lock.unlock();
    const bool refused = !FaultInForWrite(r.next, r.next + n, PageSize());
    lock.lock();
    in_flight_ = 0;
    warmed_bytes_ += refused ? 0 : n;
    // The request may have been cancelled (and others queued) meanwhile.
    if (!queue_.empty() && queue_.front().ticket == r.ticket) {
      queue_.front().next += n;
      if (queue_.front().next >= queue_.front().end) queue_.pop_front();
    }
    if (refused) {
      // This kernel cannot populate ahead: stop warming altogether.
      available_ = false;
      queue_.clear();
    }
    step_.notify_all();
  }
}

}  // namespace partita
