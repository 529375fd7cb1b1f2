#include "kv_load.h"

#include <algorithm>
#include <thread>
#include <vector>

#include "pacer.h"

namespace partita::bench::kv {

KvLoad::KvLoad(client::Client* client, KvOperations* operations, bool async, int64_t threads, int64_t rate,
               int64_t seed)
    : client_(client), operations_(operations), async_(async), threads_(threads), rate_(rate), random_(seed) {}

void KvLoad::RunUntil(Clock::time_point deadline) {
  if (async_) {
    RunAsync(deadline);
  } else {
    RunSync(deadline);
  }
}

void KvLoad::RunAsync(Clock::time_point deadline) {
  Pacer pacer(static_cast<double>(rate_));
  while (true) {
    Clock::time_point due{};
    if (pacer.paced()) {
      due = pacer.Next();
      Pacer::AwaitUntil(std::min(due, deadline));
    }
    const Clock::time_point now = Clock::now();
    if (now >= deadline) return;
    operations_->IssueAsync(random_, pacer.paced() ? due : now);
  }
}

void KvLoad::RunSync(Clock::time_point deadline) {
  std::vector<std::thread> workers;
  for (int64_t i = 0; i < threads_; ++i) {
    workers.emplace_back([this, deadline, random = random_.Split()]() mutable {
      while (Clock::now() < deadline) operations_->RunSync(random);
    });
  }
  for (std::thread& w : workers) w.join();
}

}  // namespace partita::bench::kv
