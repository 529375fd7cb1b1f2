// Verifier: checks, after the run, that keys hold the last value the driver
// wrote to them: for each sampled key, Get must return exactly the value of
// one of the key's candidate puts (WriteLog). The sample is `sample_size`
// keys chosen at random (SplittableRandom(seed), as the Java driver) plus
// every key whose last acknowledged put was answered at or after
// `recent_since_ns`. Keys with a put of unknown outcome are skipped and
// counted as unverifiable.
//
// Ownership: borrows everything it is given. Thread model: one thread runs
// it. REQUIRES: no put in flight.
#ifndef PARTITA_BENCH_KV_VERIFIER_H_
#define PARTITA_BENCH_KV_VERIFIER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "key_space.h"
#include "partita/client/client.h"
#include "value_factory.h"
#include "write_log.h"

namespace partita::bench::kv {

class Verifier {
 public:
  // How many mismatches are described in the report.
  static constexpr size_t kMaxExamples = 5;

  struct Result {
    int64_t checked = 0;
    int64_t mismatches = 0;
    int64_t unverifiable = 0;
    std::vector<std::string> examples;
    bool consistent() const { return mismatches == 0; }
  };

  Verifier(client::Client* client, const KeySpace* keys, const ValueFactory* values, const WriteLog* writes);

  Result Verify(int64_t sample_size, int64_t recent_since_ns, int64_t seed);

  // The keys to check, ascending (public for tests).
  std::vector<int> Sample(int64_t sample_size, int64_t recent_since_ns, int64_t seed) const;

  // Empty when `key` holds one of `candidates`' values, else what is wrong.
  // `value` is the Get's value, absent when it found no row (public for tests).
  static std::string CheckValue(const std::string& key_name, const ValueFactory& values,
                                const std::vector<int64_t>& candidates, bool found,
                                std::optional<std::string_view> value);

 private:
  std::string CheckAnswer(int key, const client::Result<client::Response>& answer) const;

  client::Client* client_;
  const KeySpace* keys_;
  const ValueFactory* values_;
  const WriteLog* writes_;
};

}  // namespace partita::bench::kv

#endif  // PARTITA_BENCH_KV_VERIFIER_H_
