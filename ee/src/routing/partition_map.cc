// The partition hash and map of docs/partition-hash.md.
#include "partita/partition_map.h"

#include <string>

#include "errors.pb.h"

namespace partita {
namespace {

constexpr uint64_t kFnvOffsetBasis = 0xcbf29ce484222325ULL;
constexpr uint64_t kFnvPrime = 0x100000001b3ULL;

// MurmurHash3's 64-bit finalizer: gives FNV-1a the avalanche it lacks.
uint64_t Finalize(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

Status CheckPartitionCount(int partition_count) {
  if (partition_count >= 1 && partition_count <= kBucketCount) return Status::OK();
  return Status(proto::ERROR_CODE_BAD_PARAMETER, "partition count " + std::to_string(partition_count) +
                                                     " is outside 1.." + std::to_string(kBucketCount));
}

}  // namespace

uint64_t PartitionHashOfBytes(std::string_view bytes) {
  uint64_t h = kFnvOffsetBasis;
  for (const char c : bytes) {
    h ^= static_cast<uint8_t>(c);
    h *= kFnvPrime;
  }
  return Finalize(h);
}

uint64_t PartitionHashOfInt(int64_t value) {
  const uint64_t bits = static_cast<uint64_t>(value);
  char little_endian[8];
  for (int i = 0; i < 8; ++i) little_endian[i] = static_cast<char>((bits >> (8 * i)) & 0xff);
  return PartitionHashOfBytes({little_endian, sizeof little_endian});
}

Result<uint64_t> PartitionHash(const Value& value) {
  if (value.is_null()) {
    return Status(proto::ERROR_CODE_BAD_PARAMETER, "NULL has no partition hash (it is routed to partition 0)");
  }
  switch (value.type()) {
    case ValueType::kTinyInt:
    case ValueType::kSmallInt:
    case ValueType::kInteger:
    case ValueType::kBigInt:
    case ValueType::kTimestamp:
      return PartitionHashOfInt(value.int_value());
    case ValueType::kVarchar:
    case ValueType::kVarbinary:
      return PartitionHashOfBytes(value.string_value());
    default:
      return Status(proto::ERROR_CODE_TYPE_MISMATCH,
                    "a " + std::string(TypeName(value.type())) + " value cannot partition a table (" +
                        value.ToString() + ")");
  }
}

Result<PartitionMap> PartitionMap::Uniform(int partition_count) {
  PARTITA_RETURN_IF_ERROR(CheckPartitionCount(partition_count));
  std::vector<int32_t> buckets(kBucketCount);
  for (int b = 0; b < kBucketCount; ++b) buckets[static_cast<size_t>(b)] = b % partition_count;
  return PartitionMap(std::move(buckets), partition_count);
}

Result<PartitionMap> PartitionMap::FromBuckets(std::span<const int32_t> bucket_partitions, int partition_count) {
  if (bucket_partitions.size() != static_cast<size_t>(kBucketCount)) {
    return Status(proto::ERROR_CODE_BAD_PARAMETER, "a partition map has " + std::to_string(kBucketCount) +
                                                       " buckets, not " + std::to_string(bucket_partitions.size()));
  }
  PARTITA_RETURN_IF_ERROR(CheckPartitionCount(partition_count));
  for (size_t b = 0; b < bucket_partitions.size(); ++b) {
    const int32_t p = bucket_partitions[b];
    if (p < 0 || p >= partition_count) {
      return Status(proto::ERROR_CODE_BAD_PARAMETER, "bucket " + std::to_string(b) + " maps to partition " +
                                                         std::to_string(p) + ", outside 0.." +
                                                         std::to_string(partition_count - 1));
    }
  }
  return PartitionMap(std::vector<int32_t>(bucket_partitions.begin(), bucket_partitions.end()), partition_count);
}

Result<int> PartitionMap::PartitionOf(const Value& value) const {
  if (value.is_null()) return 0;
  Result<uint64_t> hash = PartitionHash(value);
  if (!hash.ok()) return hash.status();
  return PartitionOfHash(hash.value());
}

}  // namespace partita
