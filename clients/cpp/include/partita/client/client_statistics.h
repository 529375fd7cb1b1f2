// ClientStatistics: a snapshot of a Client's calls since it started (or
// since the last reset): counts by outcome and latency percentiles, measured
// from the call's start to its callback, in microseconds.
//
// Ownership: a value type. Thread model: a snapshot; not synchronized.
#ifndef PARTITA_CLIENT_CLIENT_STATISTICS_H_
#define PARTITA_CLIENT_CLIENT_STATISTICS_H_

#include <cstdint>

namespace partita::client {

struct ClientStatistics {
  uint64_t calls = 0;  // calls started (sent or failed on the client's side)
  // Answers from the server, by status.
  uint64_t successes = 0;
  uint64_t user_aborts = 0;
  uint64_t graceful_failures = 0;
  uint64_t rejected = 0;
  uint64_t unexpected_failures = 0;
  // Client-side failures.
  uint64_t timeouts = 0;
  uint64_t connection_lost = 0;
  uint64_t backpressure = 0;
  uint64_t other_client_errors = 0;  // no connection, frame too large, malformed answer, closed
  // Answers that came after their call had timed out.
  uint64_t late_responses = 0;
  // Latency of the calls the server answered, in microseconds.
  uint64_t latency_count = 0;
  double latency_mean_us = 0;
  uint64_t p50_us = 0;
  uint64_t p95_us = 0;
  uint64_t p99_us = 0;
  uint64_t p999_us = 0;
  uint64_t max_us = 0;

  uint64_t answered() const {
    return successes + user_aborts + graceful_failures + rejected + unexpected_failures;
  }
  uint64_t failed_on_client() const {
    return timeouts + connection_lost + backpressure + other_client_errors;
  }
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_CLIENT_STATISTICS_H_
