#include "value_factory.h"

#include "split_random.h"

namespace partita::bench::kv {

std::string ValueFactory::Check(int64_t size) {
  if (size < kMinSize || size > kMaxSize) {
    return "--value-size must be between " + std::to_string(kMinSize) + " (the write's sequence number) and " +
           std::to_string(kMaxSize) + " bytes (the width of store.value), got " + std::to_string(size);
  }
  return "";
}

ValueFactory::ValueFactory(int64_t size, int64_t seed)
    : size_(static_cast<size_t>(size)), pool_(size_ + kPoolExtra, '\0') {
  SplitRandom random(seed);
  for (char& c : pool_) c = static_cast<char>(random.NextInt(256));
}

std::string ValueFactory::Value(int64_t sequence) const {
  const size_t offset = static_cast<size_t>((static_cast<uint64_t>(sequence) * SplitRandom::kGoldenGamma) % kPoolExtra);
  std::string value(size_, '\0');
  for (int i = 0; i < kMinSize; ++i) {
    value[static_cast<size_t>(i)] = static_cast<char>(static_cast<uint64_t>(sequence) >> (56 - 8 * i));
  }
  value.replace(kMinSize, size_ - kMinSize, pool_, offset + kMinSize, size_ - kMinSize);
  return value;
}

int64_t ValueFactory::SequenceOf(std::string_view value) {
  if (value.size() < static_cast<size_t>(kMinSize)) return -1;
  uint64_t sequence = 0;
  for (int i = 0; i < kMinSize; ++i) sequence = sequence << 8 | static_cast<unsigned char>(value[static_cast<size_t>(i)]);
  return static_cast<int64_t>(sequence);
}

bool ValueFactory::IsValueOf(std::string_view value, int64_t sequence) const { return value == Value(sequence); }

}  // namespace partita::bench::kv
