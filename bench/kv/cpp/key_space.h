// KeySpace: the KV driver's keys: `count` fixed-width strings, key i being
// "k" followed by i in decimal, zero-padded to `width` characters
// ("k000000123" for width 10), as the Java driver writes them.
//
// Ownership: a value type. Thread model: immutable; safe from any thread.
#ifndef PARTITA_BENCH_KV_KEY_SPACE_H_
#define PARTITA_BENCH_KV_KEY_SPACE_H_

#include <cstdint>
#include <string>

namespace partita::bench::kv {

class KeySpace {
 public:
  // The widest key the schema's store.key VARCHAR(32) holds.
  static constexpr int64_t kMaxWidth = 32;

  // Returns an empty string when `count` keys of `width` characters are
  // possible, else an error naming --preload or --key-size.
  static std::string Check(int64_t count, int64_t width);

  // REQUIRES: Check(count, width) is empty.
  KeySpace(int64_t count, int64_t width) : count_(static_cast<int>(count)), width_(static_cast<int>(width)) {}

  int count() const { return count_; }
  int width() const { return width_; }

  // Key number `index`. REQUIRES: 0 <= index < count().
  std::string Key(int index) const;

 private:
  int count_;
  int width_;
};

}  // namespace partita::bench::kv

#endif  // PARTITA_BENCH_KV_KEY_SPACE_H_
