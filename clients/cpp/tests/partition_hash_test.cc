// The shared partition-hash vectors (tests/vectors/partition_hash.tsv) and
// how the router maps parameter values onto them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "partita/client/partition_hash.h"
#include "client.pb.h"
#include "router.h"

namespace partita::client {
namespace {

struct Vector {
  std::string type, value, line;
  uint64_t hash = 0;
  uint32_t bucket = 0;
  std::vector<uint32_t> partitions;  // of 2, 3, 4, 8, 12
};
constexpr uint32_t kCounts[] = {2, 3, 4, 8, 12};

std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string f; std::getline(in, f, '\t');) fields.push_back(f);
  if (!line.empty() && line.back() == '\t') fields.emplace_back();
  return fields;
}

std::string Unescape(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out += text[i];
      continue;
    }
    const char c = text[++i];
    out += c == 't' ? '\t' : c == 'n' ? '\n' : c;
  }
  return out;
}

std::string FromHex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return out;
}

std::vector<Vector> LoadVectors() {
  std::ifstream in(PARTITA_HASH_VECTORS);
  std::vector<Vector> vectors;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = Split(line);
    if (f.size() != 9) {
      ADD_FAILURE() << "malformed vector line: " << line;
      continue;
    }
    Vector v{f[0], f[1], line, std::stoull(f[2], nullptr, 16), static_cast<uint32_t>(std::stoul(f[3])), {}};
    for (size_t i = 4; i < 9; ++i) v.partitions.push_back(static_cast<uint32_t>(std::stoul(f[i])));
    vectors.push_back(v);
  }
  return vectors;
}

uint64_t HashOf(const Vector& v) {
  if (v.type == "BIGINT") return PartitionHash::HashInt64(std::stoll(v.value));
  if (v.type == "VARCHAR") return PartitionHash::HashBytes(Unescape(v.value));
  return PartitionHash::HashBytes(FromHex(v.value));
}

TEST(PartitionHashTest, MatchesEverySharedVector) {
  const std::vector<Vector> vectors = LoadVectors();
  ASSERT_GE(vectors.size(), 10u) << "no vectors read from " << PARTITA_HASH_VECTORS;
  for (const Vector& v : vectors) {
    SCOPED_TRACE(v.line);
    const uint64_t hash = HashOf(v);
    EXPECT_EQ(hash, v.hash);
    EXPECT_EQ(PartitionHash::Bucket(hash), v.bucket);
    for (size_t i = 0; i < std::size(kCounts); ++i) {
      EXPECT_EQ(PartitionHash::PartitionOfHash(hash, kCounts[i]), v.partitions[i]) << "of " << kCounts[i];
    }
  }
}

// The shared bucket-table vectors (tests/vectors/partition_map.tsv): a
// client routes through the topology's table, not bucket mod count.
TEST(PartitionHashTest, RouterRoutesTheSharedVectorsThroughTheBucketTable) {
  std::ifstream in(PARTITA_MAP_VECTORS);
  std::vector<uint32_t> table(PartitionHash::kBuckets, 0);
  Topology topology;
  int checked = 0;
  std::vector<uint32_t> routed;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = Split(line);
    if (f[0] == "partitions") {
      topology.set_partition_count(static_cast<uint32_t>(std::stoul(f[1])));
    } else if (f[0] == "buckets") {
      std::fill(table.begin() + std::stol(f[1]), table.begin() + std::stol(f[2]) + 1,
                static_cast<uint32_t>(std::stoul(f[3])));
    } else {
      if (routed.empty()) {
        for (uint32_t partition : table) topology.add_bucket_partitions(partition);
        routed = Router::BucketTable(topology);
        ASSERT_EQ(routed.size(), PartitionHash::kBuckets);
      }
      SCOPED_TRACE(line);
      const Param value = f[1] == "BIGINT" ? Param(static_cast<int64_t>(std::stoll(f[2])))
                          : f[1] == "VARCHAR" ? Param(Unescape(f[2])) : Param::Bytes(FromHex(f[2]));
      const uint32_t type = f[1] == "BIGINT" ? 5 : f[1] == "VARCHAR" ? 8 : 9;
      const int bucket = Router::BucketOf(value, type);
      ASSERT_GE(bucket, 0);
      EXPECT_EQ(routed[static_cast<size_t>(bucket)], static_cast<uint32_t>(std::stoul(f[3])));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 19) << "vectors read from " << PARTITA_MAP_VECTORS;
}

TEST(PartitionHashTest, RouterRefusesABucketTableNamingAMissingPartition) {
  Topology topology;
  topology.set_partition_count(2);
  for (uint32_t b = 0; b < PartitionHash::kBuckets; ++b) topology.add_bucket_partitions(b == 9 ? 5 : 0);
  EXPECT_TRUE(Router::BucketTable(topology).empty());
}

TEST(PartitionHashTest, RouterHashesIntegersAlikeWhateverTheColumnWidth) {
  const int bigint = Router::PartitionOf(Param(6175551234LL), 5, 4);
  EXPECT_EQ(bigint, 1);  // the documented vector
  EXPECT_EQ(Router::PartitionOf(Param(42), 4, 8), Router::PartitionOf(Param(42LL), 2, 8));
  EXPECT_EQ(Router::PartitionOf(Param(42.0), 5, 8), Router::PartitionOf(Param(42), 5, 8));
  EXPECT_EQ(Router::PartitionOf(Param::Timestamp(42), 10, 8), Router::PartitionOf(Param(42), 5, 8));
}

TEST(PartitionHashTest, RouterSendsNullToPartitionZeroAndDoesNotRouteWhatItCannotConvert) {
  EXPECT_EQ(Router::PartitionOf(Param(), 8, 4), 0);
  EXPECT_EQ(Router::PartitionOf(Param(1.5), 5, 4), -1);
  EXPECT_EQ(Router::PartitionOf(Param("7"), 5, 4), -1);
  EXPECT_EQ(Router::PartitionOf(Param(7), 8, 4), -1);
  EXPECT_EQ(Router::PartitionOf(Param::Decimal("7"), 5, 4), -1);
  EXPECT_EQ(Router::PartitionOf(Param(7), 6, 4), -1);  // FLOAT cannot partition
  EXPECT_EQ(Router::PartitionOf(Param("key-00001"), 8, 4), 0);
  EXPECT_EQ(Router::PartitionOf(Param::Bytes(FromHex("deadbeef")), 9, 3), 1);
}

}  // namespace
}  // namespace partita::client
