// PageWarmer: faults in the pages of memory a partition is about to write
// (the next block of a table, the table a hash index grows into) on a
// background thread, so that no insert is the one that first touches a
// fresh page. On a virtual machine that first touch can cost the guest's
// page fault and the host's, hundreds of microseconds to milliseconds in
// one insert; warmed ahead, the insert finds the page mapped.
//
// Warming writes nothing the owner can see: it faults each page in with a
// write that leaves its contents (zeros, or what the owner already wrote) as
// they are (x86-64: an atomic OR of zero; elsewhere madvise
// MADV_POPULATE_WRITE, Linux 5.14+). So the owner may write the range while
// it is being warmed. Where neither is available, Warm() does nothing and
// pages fault in on first write, as without a warmer.
//
// Ownership: one per process (Instance), never destroyed: its thread waits
// for work until the process exits. An owner of a warmed range calls
// Cancel(ticket) before freeing it. Thread model: thread-safe; the queue is
// guarded by mu_, held only for bookkeeping, never while pages fault in.
#ifndef PARTITA_COMMON_PAGE_WARMER_H_
#define PARTITA_COMMON_PAGE_WARMER_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>

namespace partita {

class PageWarmer {
 public:
  // Identifies a request; 0 = none (Cancel(0) is a no-op).
  using Ticket = uint64_t;
  // Bytes faulted in per step: how long Cancel may wait at most (one page,
  // or one huge page where the range has them). With madvise, also how long
  // one step holds the process's memory-map lock: on a VM where a first touch
  // costs ~0.2 ms, a 64 KiB step held it 3-5 ms, and an inserting thread's
  // mmap of its next block spun on it that long (bench/engine/RESULTS.md,
  // "Insert stalls").
  static constexpr size_t kStepBytes = size_t{4} << 10;

  static PageWarmer& Instance();

  PageWarmer(const PageWarmer&) = delete;
  PageWarmer& operator=(const PageWarmer&) = delete;

  // Queues [data, data + bytes) (widened to whole pages) to be faulted in.
  // Returns its ticket, or 0 when warming is not available. Does not wait.
  Ticket Warm(void* data, size_t bytes);
  // After it returns, the warmer no longer touches `ticket`'s range: a
  // queued request is dropped, one being warmed finishes its current step.
  // REQUIRES: called before the range is freed.
  void Cancel(Ticket ticket);
  // Waits until every queued request is done (tests and benchmarks).
  void Drain();
  // Bytes faulted in so far, all requests (statistics and tests).
  uint64_t warmed_bytes();
  // Whether the kernel supports warming (tested on the first request).
  bool available();

 private:
  struct Request {
    Ticket ticket;
    uintptr_t next;  // page-aligned
    uintptr_t end;
  };

  PageWarmer() = default;
  void Run();

  std::mutex mu_;
  std::condition_variable work_;  // a request was queued
  std::condition_variable step_;  // a step ended
  std::deque<Request> queue_;     // GUARDED_BY(mu_)
  Ticket in_flight_ = 0;          // GUARDED_BY(mu_): the ticket being warmed now
  Ticket last_ticket_ = 0;        // GUARDED_BY(mu_)
  uint64_t warmed_bytes_ = 0;     // GUARDED_BY(mu_)
  bool available_ = true;         // GUARDED_BY(mu_): false once the kernel refused
  bool started_ = false;          // GUARDED_BY(mu_)
};

}  // namespace partita

#endif  // PARTITA_COMMON_PAGE_WARMER_H_
