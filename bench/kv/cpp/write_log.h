// WriteLog: what the driver knows about its own writes, key by key: which
// of its acknowledged puts may hold the key's current value (the Java
// driver's rule; bench/kv/README.md, "What is verified").
//
// A put P certainly precedes a put Q when P's answer arrived before Q was
// sent. The current value of a key must then come from an acknowledged put
// that certainly precedes no other acknowledged put: with S the latest send
// time among the key's acknowledged puts, the candidates are the puts
// acknowledged at or after S. Puts issued one after another leave one
// candidate; overlapping puts to the same key leave each of them. A put
// whose outcome is unknown (a client-side failure: timeout, lost connection)
// makes its key unverifiable. Puts answered with a failure status did not
// commit and are not recorded.
//
// Ownership: owns its records (about 80 bytes a key). Thread model:
// thread-safe; keys are guarded by striped mutexes.
#ifndef PARTITA_BENCH_KV_WRITE_LOG_H_
#define PARTITA_BENCH_KV_WRITE_LOG_H_

#include <array>
#include <cstdint>
#include <limits>
#include <mutex>
#include <vector>

namespace partita::bench::kv {

class WriteLog {
 public:
  // Times are nanoseconds on one monotonic clock.
  static constexpr int64_t kNever = std::numeric_limits<int64_t>::min();

  explicit WriteLog(int key_count);

  // Put `sequence` on `key`, sent at `sent_ns`, was answered SUCCESS at `ack_ns`.
  void Acknowledged(int key, int64_t sequence, int64_t sent_ns, int64_t ack_ns);
  // A put on `key` may or may not have committed.
  void OutcomeUnknown(int key);

  // The sequence numbers one of which `key` must hold; empty when
  // unverifiable or never written.
  std::vector<int64_t> Candidates(int key) const;
  bool IsUncertain(int key) const;
  // When the last acknowledged put on `key` was answered, or kNever.
  int64_t LastAcknowledged(int key) const;
  int key_count() const { return static_cast<int>(keys_.size()); }

 private:
  static constexpr size_t kStripes = 256;

  struct KeyWrites {
    int64_t latest_sent = kNever;
    int64_t last_ack = kNever;
    bool uncertain = false;
    std::vector<std::pair<int64_t, int64_t>> candidates;  // (sequence, ack time)
  };

  std::mutex& StripeOf(int key) const { return stripes_[static_cast<size_t>(key) % kStripes]; }

  mutable std::array<std::mutex, kStripes> stripes_;
  std::vector<KeyWrites> keys_;  // keys_[k] guarded by StripeOf(k)
};

}  // namespace partita::bench::kv

#endif  // PARTITA_BENCH_KV_WRITE_LOG_H_
