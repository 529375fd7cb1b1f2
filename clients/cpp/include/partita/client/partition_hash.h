// PartitionHash: the partition of a value, computed exactly as the server
// and every other client compute it (docs/partition-hash.md; vectors in
// tests/vectors/partition_hash.tsv):
//   1. canonical bytes: integers of any width and TIMESTAMPs are their value
//      as 8 bytes little-endian; VARCHAR its UTF-8 bytes; VARBINARY itself;
//   2. hash = fmix64(FNV-1a-64(bytes));
//   3. bucket = hash >> 50 (16,384 buckets); partition = bucket mod count.
// A NULL goes to partition 0.
//
// Thread model: stateless functions; safe from any thread.
#ifndef PARTITA_CLIENT_PARTITION_HASH_H_
#define PARTITA_CLIENT_PARTITION_HASH_H_

#include <cstdint>
#include <string_view>

namespace partita::client {

class PartitionHash final {
 public:
  static constexpr int kBucketBits = 14;
  static constexpr uint32_t kBuckets = 1u << kBucketBits;
  // The algorithm's name in the login answer's HashSpecification.
  static constexpr std::string_view kAlgorithm = "fnv1a64-fmix64";

  static uint64_t Fnv1a64(std::string_view bytes);
  static uint64_t Fmix64(uint64_t k);

  // Hash of an integer (any width) or TIMESTAMP value.
  static uint64_t HashInt64(int64_t value);
  // Hash of a VARCHAR (its UTF-8 bytes) or VARBINARY value.
  static uint64_t HashBytes(std::string_view bytes);

  static uint32_t Bucket(uint64_t hash) { return static_cast<uint32_t>(hash >> (64 - kBucketBits)); }
  // REQUIRES: partition_count > 0.
  static uint32_t PartitionOfHash(uint64_t hash, uint32_t partition_count) {
    return Bucket(hash) % partition_count;
  }
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_PARTITION_HASH_H_
