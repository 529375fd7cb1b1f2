#include "common/page_warmer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace partita {
namespace {

#ifdef MADV_POPULATE_WRITE
constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
constexpr int kPopulateWrite = 23;  // Linux's value, for older C library headers
#endif

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
    const bool refused = madvise(reinterpret_cast<void*>(r.next), n, kPopulateWrite) != 0 && errno == EINVAL;
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
