// Random64: a small, fast, seeded pseudo-random generator (SplitMix64) for
// benchmark drivers, where std::mt19937_64 and std::uniform_int_distribution
// would cost as much as the work being measured.
//
// Not cryptographic; Uniform() has a bias below 2^-40 for the bounds used
// here. Thread model: a plain value; give each thread its own.
#ifndef PARTITA_BENCH_ENGINE_RANDOM64_H_
#define PARTITA_BENCH_ENGINE_RANDOM64_H_

#include <cstdint>

namespace partita::bench {

class Random64 {
 public:
  explicit Random64(uint64_t seed) : state_(seed) {}

  // Returns the next 64 random bits.
  uint64_t Next() {
    state_ += 0x9E3779B97F4A7C15ULL;
    return Mix(state_);
  }

  // Returns a value in [0, bound). REQUIRES: bound > 0.
  uint64_t Uniform(uint64_t bound) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * bound) >> 64);
  }

  // The SplitMix64 finalizer: a bijection on 64-bit values, used to turn row
  // numbers into well-spread keys.
  static uint64_t Mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
};

}  // namespace partita::bench

#endif  // PARTITA_BENCH_ENGINE_RANDOM64_H_
