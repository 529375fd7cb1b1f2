// Latencies: round-trip times of a driver's calls in microseconds, kept two
// ways: per progress interval (read and cleared by TakeInterval), and over
// the measured period (from StartMeasuring to StopMeasuring).
//
// Thread model: Record() is lock-free from any number of threads (the
// client's I/O threads, the calling threads). TakeInterval, StartMeasuring,
// StopMeasuring and Measured are for one reading thread at a time. A record
// made while an interval is being cleared may be lost from that interval's
// progress line (never from the measured period).
#ifndef PARTITA_BENCH_COMMON_LATENCIES_H_
#define PARTITA_BENCH_COMMON_LATENCIES_H_

#include <atomic>
#include <cstdint>

#include "latency_summary.h"
#include "partita/client/latency_histogram.h"

namespace partita::bench {

class Latencies {
 public:
  // Records one call that took `nanos` (clamped to 1 µs .. 1 hour).
  void Record(int64_t nanos);

  // The summary of the calls recorded since the previous TakeInterval; starts a new interval.
  LatencySummary TakeInterval();

  // From now on, records also count towards the measured period (which starts empty).
  void StartMeasuring();
  // From now on, records no longer count towards the measured period.
  void StopMeasuring();
  // The measured period's summary.
  LatencySummary Measured() const;

 private:
  client::LatencyHistogram interval_;
  client::LatencyHistogram measured_;
  std::atomic<bool> measuring_{false};
};

}  // namespace partita::bench

#endif  // PARTITA_BENCH_COMMON_LATENCIES_H_
