// ValueFactory: the values the KV driver writes, byte for byte as the Java
// driver writes them: `size` bytes, the write's sequence number in the
// first 8 (big-endian), then random bytes taken from a fixed pool (drawn
// from SplittableRandom(seed)) at an offset that depends on the sequence
// number. A value is thus a function of its sequence number: the driver
// keeps only sequence numbers and can rebuild, and compare, any value it wrote.
//
// Ownership: owns its pool (size + 4 KB). Thread model: immutable; safe
// from any thread.
#ifndef PARTITA_BENCH_KV_VALUE_FACTORY_H_
#define PARTITA_BENCH_KV_VALUE_FACTORY_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace partita::bench::kv {

class ValueFactory {
 public:
  // The sequence number's bytes: the smallest value size accepted.
  static constexpr int64_t kMinSize = 8;
  // The widest value the schema's store.value VARBINARY(1048576) holds.
  static constexpr int64_t kMaxSize = 1 << 20;

  // Returns an empty string when `size` is accepted, else an error naming --value-size.
  static std::string Check(int64_t size);

  // REQUIRES: Check(size) is empty.
  ValueFactory(int64_t size, int64_t seed);

  size_t size() const { return size_; }

  // The value of write number `sequence`.
  std::string Value(int64_t sequence) const;

  // The sequence number embedded in `value`, or -1 when it is too short to hold one.
  static int64_t SequenceOf(std::string_view value);

  // Whether `value` is exactly the value of write number `sequence`.
  bool IsValueOf(std::string_view value, int64_t sequence) const;

 private:
  static constexpr uint64_t kPoolExtra = 4096;

  size_t size_;
  std::string pool_;
};

}  // namespace partita::bench::kv

#endif  // PARTITA_BENCH_KV_VALUE_FACTORY_H_
