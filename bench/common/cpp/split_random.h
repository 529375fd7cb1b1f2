// SplitRandom: the pseudo-random generator of java.util.SplittableRandom
// (SplitMix64), bit for bit: the same seed gives the same sequence of
// nextLong, nextInt(bound), nextDouble and nextBoolean as the Java drivers,
// so the C++ and Java drivers draw the same keys, values and votes.
//
// Ownership: a value type. Thread model: not synchronized; one per thread
// (Split() makes an independent one).
#ifndef PARTITA_BENCH_COMMON_SPLIT_RANDOM_H_
#define PARTITA_BENCH_COMMON_SPLIT_RANDOM_H_

#include <bit>
#include <cstdint>

namespace partita::bench {

class SplitRandom {
 public:
  static constexpr uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ULL;

  explicit SplitRandom(int64_t seed) : seed_(static_cast<uint64_t>(seed)), gamma_(kGoldenGamma) {}

  int64_t NextLong() { return static_cast<int64_t>(Mix64(NextSeed())); }
  int32_t NextInt() { return Mix32(NextSeed()); }

  // Uniform in [0, bound). REQUIRES: bound > 0.
  int32_t NextInt(int32_t bound) {
    int32_t r = NextInt();
    const int32_t m = bound - 1;
    if ((bound & m) == 0) return r & m;
    // Java's rejection loop: retry while u lies in the incomplete last block
    // (u + m - r overflows int32 there).
    for (uint32_t u = static_cast<uint32_t>(r) >> 1;; u = static_cast<uint32_t>(NextInt()) >> 1) {
      r = static_cast<int32_t>(u % static_cast<uint32_t>(bound));
      if (static_cast<int32_t>(u + static_cast<uint32_t>(m) - static_cast<uint32_t>(r)) >= 0) return r;
    }
  }

  // Uniform in [0, 1), 53 random bits.
  double NextDouble() { return static_cast<double>(static_cast<uint64_t>(NextLong()) >> 11) * 0x1.0p-53; }
  bool NextBoolean() { return NextInt() < 0; }

  // An independent generator; advances this one.
  SplitRandom Split() {
    const uint64_t seed = static_cast<uint64_t>(NextLong());
    return SplitRandom(seed, MixGamma(NextSeed()));
  }

 private:
  SplitRandom(uint64_t seed, uint64_t gamma) : seed_(seed), gamma_(gamma) {}

  uint64_t NextSeed() { return seed_ += gamma_; }

  static uint64_t Mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  static int32_t Mix32(uint64_t z) {
    z = (z ^ (z >> 33)) * 0x62a9d9ed799705f5ULL;
    return static_cast<int32_t>(((z ^ (z >> 28)) * 0xcb24d0a5c88c35b3ULL) >> 32);
  }
  static uint64_t MixGamma(uint64_t z) {
    z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdULL;
    z = (z ^ (z >> 33)) * 0xc4ceb9fe1a85ec53ULL;
    z = (z ^ (z >> 33)) | 1ULL;
    const int n = std::popcount(z ^ (z >> 1));
    return n < 24 ? z ^ 0xaaaaaaaaaaaaaaaaULL : z;
  }

  uint64_t seed_;
  uint64_t gamma_;
};

}  // namespace partita::bench

#endif  // PARTITA_BENCH_COMMON_SPLIT_RANDOM_H_
