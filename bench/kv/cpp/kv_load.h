// KvLoad: runs KV operations until a deadline, one of two ways:
//  - async: from the calling thread, as fast as the client's in-flight bound
//    lets them out (firehose, rate 0), or paced, call n sent at
//    start + n / rate with its latency measured from that scheduled time, so
//    that a stall of the driver counts against latency rather than hiding it;
//  - sync: `threads` threads, each running one operation at a time (closed
//    loop); a rate limit is then the client's own (ClientConfig).
//
// Ownership: borrows the client and the operations. Thread model: one
// thread calls RunUntil and Drain; RunUntil starts and joins the sync workers.
#ifndef PARTITA_BENCH_KV_KV_LOAD_H_
#define PARTITA_BENCH_KV_KV_LOAD_H_

#include <chrono>
#include <cstdint>

#include "kv_operations.h"
#include "partita/client/client.h"
#include "split_random.h"

namespace partita::bench::kv {

class KvLoad {
 public:
  using Clock = std::chrono::steady_clock;

  KvLoad(client::Client* client, KvOperations* operations, bool async, int64_t threads, int64_t rate, int64_t seed);

  void RunUntil(Clock::time_point deadline);
  // Waits for every operation in flight.
  void Drain() { client_->Drain(); }

 private:
  void RunAsync(Clock::time_point deadline);
  void RunSync(Clock::time_point deadline);

  client::Client* client_;
  KvOperations* operations_;
  bool async_;
  int64_t threads_;
  int64_t rate_;
  SplitRandom random_;  // async: the operations' draws; sync: the workers' seeds
};

}  // namespace partita::bench::kv

#endif  // PARTITA_BENCH_KV_KV_LOAD_H_
