// The public partition hash and map against the shared vectors
// (tests/vectors/partition_hash.tsv, partition_map.tsv), which the server and
// every client pass too.
#include "partita/partition_map.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "errors.pb.h"

namespace partita {
namespace {

std::vector<std::string> Fields(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1) {
    fields.push_back(line.substr(start, tab - start));
  }
  fields.push_back(line.substr(start));
  return fields;
}

// A value as the vector files write it: BIGINT decimal, VARCHAR text with
// \t \n \\ escaped, VARBINARY hex. `storage` keeps the string bytes alive.
Value ParseValue(const std::string& type, const std::string& text, std::string* storage) {
  if (type == "BIGINT") return Value::BigInt(std::stoll(text));
  storage->clear();
  if (type == "VARCHAR") {
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\\' && i + 1 < text.size()) {
        const char e = text[++i];
        *storage += e == 't' ? '\t' : e == 'n' ? '\n' : e;
      } else {
        *storage += text[i];
      }
    }
    return Value::Varchar(*storage);
  }
  for (size_t i = 0; i + 1 < text.size(); i += 2) *storage += static_cast<char>(std::stoi(text.substr(i, 2), nullptr, 16));
  return Value::Varbinary(*storage);
}

std::vector<std::vector<std::string>> Records(const char* path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> records;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') records.push_back(Fields(line));
  }
  return records;
}

TEST(PartitionMapTest, HashBucketAndUniformPartitionsMatchTheSharedVectors) {
  const auto records = Records(PARTITA_VECTORS_DIR "/partition_hash.tsv");
  ASSERT_GE(records.size(), 10u) << "no vectors in " PARTITA_VECTORS_DIR;
  const int counts[] = {2, 3, 4, 8, 12};
  for (const auto& r : records) {
    ASSERT_EQ(r.size(), 9u);
    SCOPED_TRACE(r[0] + " " + r[1]);
    std::string storage;
    const Value value = ParseValue(r[0], r[1], &storage);
    Result<uint64_t> hash = PartitionHash(value);
    ASSERT_TRUE(hash.ok()) << hash.status().ToString();
    EXPECT_EQ(hash.value(), std::stoull(r[2], nullptr, 16));
    EXPECT_EQ(BucketOfHash(hash.value()), std::stoi(r[3]));
    for (int i = 0; i < 5; ++i) {
      const PartitionMap map = PartitionMap::Uniform(counts[i]).value();
      EXPECT_EQ(map.PartitionOf(value).value(), std::stoi(r[4 + static_cast<size_t>(i)])) << "of " << counts[i];
    }
  }
}

TEST(PartitionMapTest, RoutesTheSharedVectorsThroughAGivenBucketTable) {
  std::vector<int32_t> buckets(kBucketCount, 0);
  int partitions = 0;
  int checked = 0;
  for (const auto& r : Records(PARTITA_VECTORS_DIR "/partition_map.tsv")) {
    if (r[0] == "partitions") {
      partitions = std::stoi(r[1]);
    } else if (r[0] == "buckets") {
      for (int b = std::stoi(r[1]); b <= std::stoi(r[2]); ++b) buckets[static_cast<size_t>(b)] = std::stoi(r[3]);
    } else {
      ASSERT_EQ(r[0], "value");
      const PartitionMap map = PartitionMap::FromBuckets(buckets, partitions).value();
      std::string storage;
      SCOPED_TRACE(r[1] + " " + r[2]);
      EXPECT_EQ(map.PartitionOf(ParseValue(r[1], r[2], &storage)).value(), std::stoi(r[3]));
      ++checked;
    }
  }
  EXPECT_GE(checked, 10);
}

TEST(PartitionMapTest, IntegersOfEveryWidthAndTimestampsHashAlike) {
  const uint64_t h = PartitionHashOfInt(7);
  for (const Value v : {Value::TinyInt(7), Value::SmallInt(7), Value::Integer(7), Value::BigInt(7), Value::Timestamp(7)}) {
    EXPECT_EQ(PartitionHash(v).value(), h) << v.ToString();
  }
}

TEST(PartitionMapTest, NullGoesToPartitionZeroAndUnroutableTypesAreErrors) {
  const PartitionMap map = PartitionMap::Uniform(4).value();
  EXPECT_EQ(map.PartitionOf(Value::Null(ValueType::kBigInt)).value(), 0);
  EXPECT_EQ(PartitionHash(Value::Null(ValueType::kBigInt)).status().code(), proto::ERROR_CODE_BAD_PARAMETER);
  Result<int> f = map.PartitionOf(Value::Float(1.5));
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), proto::ERROR_CODE_TYPE_MISMATCH);
  EXPECT_NE(f.status().message().find("FLOAT"), std::string::npos);
}

TEST(PartitionMapTest, RefusesMalformedMapsNamingTheBucket) {
  EXPECT_FALSE(PartitionMap::Uniform(0).ok());
  EXPECT_FALSE(PartitionMap::Uniform(kBucketCount + 1).ok());
  std::vector<int32_t> buckets(kBucketCount, 1);
  EXPECT_FALSE(PartitionMap::FromBuckets(std::span(buckets).first(100), 2).ok());
  buckets[9000] = 2;
  Result<PartitionMap> map = PartitionMap::FromBuckets(buckets, 2);
  ASSERT_FALSE(map.ok());
  EXPECT_NE(map.status().message().find("bucket 9000 maps to partition 2"), std::string::npos)
      << map.status().message();
}

}  // namespace
}  // namespace partita
