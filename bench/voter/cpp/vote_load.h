// VoteLoad: sends Vote calls until a deadline, one of two ways:
//  - async: one thread calling CallAsync as fast as the client's in-flight
//    bound lets it (firehose), or each call at its own scheduled time
//    (start + n / rate) so that latency is measured under an even load;
//  - sync: `threads` threads, each waiting for its answer before the next
//    call (the closed loop of many independent callers); with a rate, each
//    thread paces itself to rate / threads, the schedules staggered by 1 / rate.
// Latency runs from the call's start to its answer, in both modes.
//
// Ownership: borrows the client, the latencies and the generator; they must
// outlive it. Thread model: Run() on one thread at a time; it starts and
// joins its workers (sync), and returns once every call it made has finished.
#ifndef PARTITA_BENCH_VOTER_VOTE_LOAD_H_
#define PARTITA_BENCH_VOTER_VOTE_LOAD_H_

#include <chrono>
#include <cstdint>

#include "latencies.h"
#include "outcomes.h"
#include "partita/client/client.h"
#include "vote_generator.h"

namespace partita::bench::voter {

class VoteLoad {
 public:
  using Clock = std::chrono::steady_clock;

  struct Shape {
    bool async = true;
    int64_t threads = 1;    // sync only
    int64_t rate = 0;       // calls per second in all; 0: as fast as possible
    int64_t max_votes = 2;  // Vote's third parameter
  };

  VoteLoad(client::Client* client, Latencies* latencies, VoteGenerator* generator, Shape shape);

  // Calls Vote until `end`, counting outcomes into `outcomes`; returns once
  // every call made has been answered or has failed.
  void Run(Clock::time_point end, Outcomes* outcomes);

 private:
  void RunAsync(Clock::time_point end, Outcomes* outcomes);
  void RunSync(Clock::time_point end, Outcomes* outcomes);
  // One sync thread's loop.
  void CallUntil(Clock::time_point end, VoteGenerator generator, double rate, Clock::duration offset,
                 Outcomes* outcomes);

  client::Client* client_;
  Latencies* latencies_;
  VoteGenerator* generator_;
  Shape shape_;
};

}  // namespace partita::bench::voter

#endif  // PARTITA_BENCH_VOTER_VOTE_LOAD_H_
