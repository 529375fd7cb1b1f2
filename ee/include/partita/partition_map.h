// The partition hash and the partition map (docs/partition-hash.md): how a
// value is routed to a partition, exactly as the server and every client
// route it, so that a program running several engines puts each row where a
// server would.
//
//   hash      = FNV-1a 64 over the value's canonical bytes, then MurmurHash3's
//               64-bit finalizer (PartitionHash)
//   bucket    = hash >> 50, one of kBucketCount (16,384)
//   partition = the partition map's entry for the bucket (PartitionMap)
//
// Thread model: plain values; a PartitionMap is immutable after it is made
// and may be shared by any number of threads.
#ifndef PARTITA_PARTITION_MAP_H_
#define PARTITA_PARTITION_MAP_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "partita/status.h"
#include "partita/value.h"

namespace partita {

// Buckets of the partition map; a hash's bucket is its top 14 bits.
inline constexpr int kBucketCount = 16384;

// The partition hash of canonical bytes (step 2 of the specification).
uint64_t PartitionHashOfBytes(std::string_view bytes);

// The partition hash of an integer of any width, or a TIMESTAMP's
// microseconds: its 8 bytes as a signed 64-bit little-endian integer.
uint64_t PartitionHashOfInt(int64_t value);

// The partition hash of a non-NULL value of a type that may partition a
// table (TINYINT, SMALLINT, INTEGER, BIGINT, TIMESTAMP, VARCHAR, VARBINARY).
// Returns TYPE_MISMATCH for other types and BAD_PARAMETER for NULL (which
// has no hash: PartitionMap::PartitionOf sends it to partition 0).
Result<uint64_t> PartitionHash(const Value& value);

// The bucket of a partition hash: 0 <= bucket < kBucketCount.
inline int BucketOfHash(uint64_t hash) { return static_cast<int>(hash >> 50); }

// Which partition owns each bucket.
class PartitionMap {
 public:
  // The map a one-host server uses: bucket b belongs to partition
  // b mod partition_count. Returns BAD_PARAMETER unless
  // 1 <= partition_count <= kBucketCount.
  static Result<PartitionMap> Uniform(int partition_count);

  // A map given bucket by bucket (a server's topology). Returns
  // BAD_PARAMETER naming the bucket unless there are exactly kBucketCount
  // entries, each in [0, partition_count).
  static Result<PartitionMap> FromBuckets(std::span<const int32_t> bucket_partitions, int partition_count);

  int partition_count() const { return partition_count_; }
  // REQUIRES: 0 <= bucket < kBucketCount.
  int PartitionOfBucket(int bucket) const { return buckets_[static_cast<size_t>(bucket)]; }
  int PartitionOfHash(uint64_t hash) const { return PartitionOfBucket(BucketOfHash(hash)); }
  // The partition of a value; NULL goes to partition 0. Returns
  // TYPE_MISMATCH for a type that cannot partition a table.
  Result<int> PartitionOf(const Value& value) const;
  // The partition of an integer (or TIMESTAMP) key, the common case.
  int PartitionOfInt(int64_t value) const { return PartitionOfHash(PartitionHashOfInt(value)); }
  // Each bucket's partition, kBucketCount entries.
  std::span<const int32_t> buckets() const { return buckets_; }

 private:
  PartitionMap(std::vector<int32_t> buckets, int partition_count)
      : buckets_(std::move(buckets)), partition_count_(partition_count) {}

  std::vector<int32_t> buckets_;
  int partition_count_;
};

}  // namespace partita

#endif  // PARTITA_PARTITION_MAP_H_
