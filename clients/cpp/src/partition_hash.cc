#include "partita/client/partition_hash.h"

namespace partita::client {
namespace {
constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
constexpr uint64_t kFnvPrime = 0x100000001b3ULL;
}  // namespace

uint64_t PartitionHash::Fnv1a64(std::string_view bytes) {
  uint64_t h = kFnvOffset;
  for (char c : bytes) {
    h ^= static_cast<uint8_t>(c);
    h *= kFnvPrime;
  }
  return h;
}

uint64_t PartitionHash::Fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

uint64_t PartitionHash::HashInt64(int64_t value) {
  const auto bits = static_cast<uint64_t>(value);
  uint64_t h = kFnvOffset;
  for (int i = 0; i < 8; ++i) {  // the 8 bytes little-endian, whatever the host order
    h ^= (bits >> (8 * i)) & 0xff;
    h *= kFnvPrime;
  }
  return Fmix64(h);
}

uint64_t PartitionHash::HashBytes(std::string_view bytes) { return Fmix64(Fnv1a64(bytes)); }

}  // namespace partita::client
