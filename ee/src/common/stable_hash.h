// StableHash: a 64-bit hash of bytes that is the same in every process, on
// every run and on every replica (no per-process seed, unlike absl::Hash), for
// values that other processes compare: the write hash of a transaction.
// Not cryptographic; words are read little-endian (every Partita target).
//
// Thread model: a value type; each instance is used by one thread.
#ifndef PARTITA_COMMON_STABLE_HASH_H_
#define PARTITA_COMMON_STABLE_HASH_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace partita {

class StableHash {
 public:
  explicit StableHash(uint64_t seed = 0) : state_(seed ^ kInit) {}

  // Adds `n` bytes. Adding the same bytes in the same calls gives the same
  // digest; the length of each call is part of it. Long inputs go through
  // four independent lanes (32 bytes per round) to keep the CPU busy.
  void AddBytes(const void* data, size_t n) {
    const auto* p = static_cast<const char*>(data);
    Step(n);
    if (n >= 32) {
      uint64_t lanes[4] = {state_, state_ ^ kLaneSeed, state_ ^ (kLaneSeed << 1), state_ ^ (kLaneSeed >> 1)};
      for (; n >= 32; n -= 32, p += 32) {
        for (int i = 0; i < 4; ++i) lanes[i] = Mix(lanes[i], Load(p + 8 * i));
      }
      for (const uint64_t lane : lanes) Step(lane);
    }
    for (; n >= 8; n -= 8, p += 8) Step(Load(p));
    if (n > 0) {
      uint64_t word = 0;
      std::memcpy(&word, p, n);
      Step(word);
    }
  }
  void AddString(std::string_view s) { AddBytes(s.data(), s.size()); }
  void AddU64(uint64_t v) { Step(v); }

  // The digest of everything added so far (the state is unchanged).
  uint64_t digest() const {
    uint64_t x = state_;  // splitmix64 finalizer
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  }

 private:
  static constexpr uint64_t kInit = 0x7061727469746121ULL;
  static constexpr uint64_t kMultiplier = 0x9E3779B97F4A7C15ULL;
  static constexpr uint64_t kLaneSeed = 0x5851F42D4C957F2DULL;

  static uint64_t Load(const char* p) {
    uint64_t word;
    std::memcpy(&word, p, sizeof word);
    return word;
  }
  static uint64_t Mix(uint64_t state, uint64_t word) {
    state = (state ^ word) * kMultiplier;
    return state ^ (state >> 29);
  }
  void Step(uint64_t word) { state_ = Mix(state_, word); }

  uint64_t state_;
};

}  // namespace partita

#endif  // PARTITA_COMMON_STABLE_HASH_H_
