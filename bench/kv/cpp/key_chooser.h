// KeyChooser: picks the key of the next operation, a key number in
// [0, count): uniformly, or Zipf with exponent ZipfSampler::kDefaultExponent
// (key 0 hottest), as --keys says.
//
// Ownership: a value type. Thread model: immutable; safe from any thread
// (the randomness comes from the caller's generator, one per thread).
#ifndef PARTITA_BENCH_KV_KEY_CHOOSER_H_
#define PARTITA_BENCH_KV_KEY_CHOOSER_H_

#include <optional>
#include <string_view>

#include "split_random.h"
#include "zipf_sampler.h"

namespace partita::bench::kv {

class KeyChooser {
 public:
  // `distribution` "uniform" or "zipf". REQUIRES: count >= 1.
  KeyChooser(std::string_view distribution, int count)
      : count_(count),
        zipf_(distribution == "zipf" ? std::make_optional<ZipfSampler>(count, ZipfSampler::kDefaultExponent)
                                     : std::nullopt) {}

  int Next(SplitRandom& random) const { return zipf_ ? zipf_->Next(random) : random.NextInt(count_); }

 private:
  int count_;
  std::optional<ZipfSampler> zipf_;
};

}  // namespace partita::bench::kv

#endif  // PARTITA_BENCH_KV_KEY_CHOOSER_H_
