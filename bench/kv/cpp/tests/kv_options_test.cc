#include "kv_options.h"

#include <gtest/gtest.h>

#include <vector>

namespace partita::bench::kv {
namespace {

ParseOutcome Parse(std::vector<const char*> args, KvOptions* o) {
  args.insert(args.begin(), "kv_driver");
  return KvOptions::Parse(static_cast<int>(args.size()), args.data(), o);
}

TEST(KvOptionsTest, shouldDefaultLikeTheJavaDriver) {
  KvOptions o;
  ASSERT_EQ(Parse({}, &o).kind, ParseOutcome::Kind::kRun);
  EXPECT_EQ(o.preload, 100'000);
  EXPECT_EQ(o.get_ratio, 0.9);
  EXPECT_EQ(o.key_size, 32);
  EXPECT_EQ(o.value_size, 1024);
  EXPECT_EQ(o.keys, "uniform");
  EXPECT_TRUE(o.async());
  EXPECT_EQ(o.verify_sample, 1000);
  EXPECT_EQ(o.seed, 42);
}

TEST(KvOptionsTest, shouldReadTheWorkloadOptions) {
  KvOptions o;
  const ParseOutcome r = Parse({"--preload", "1000", "--get-ratio", "0.5", "--key-size", "10", "--value-size", "64",
                                "--keys", "ZIPF", "--mode", "sync", "--threads", "4", "--ratelimit", "100",
                                "--verify-sample", "10", "--seed", "7", "--json", "kv.json"},
                               &o);
  ASSERT_EQ(r.kind, ParseOutcome::Kind::kRun) << r.message;
  EXPECT_EQ(o.preload, 1000);
  EXPECT_EQ(o.get_ratio, 0.5);
  EXPECT_EQ(o.key_size, 10);
  EXPECT_EQ(o.value_size, 64);
  EXPECT_EQ(o.keys, "zipf");
  EXPECT_FALSE(o.async());
  EXPECT_EQ(o.seed, 7);
}

TEST(KvOptionsTest, shouldRejectValuesOutOfRangeNamingTheOption) {
  const std::vector<std::pair<std::vector<const char*>, std::string>> cases = {
      {{"--get-ratio", "1.5"}, "--get-ratio must be between 0 and 1, got 1.5"},
      {{"--duration", "0"}, "--duration must be positive, got 0"},
      {{"--warmup", "-2"}, "--warmup must not be negative, got -2"},
      {{"--threads", "0"}, "--threads must be at least 1, got 0"},
      {{"--verify-sample", "-1"}, "--verify-sample must not be negative, got -1"},
      {{"--value-size", "4"},
       "--value-size must be between 8 (the write's sequence number) and 1048576 bytes (the width of store.value), "
       "got 4"},
      {{"--preload", "0"}, "--preload must be at least 1 key, got 0"},
      {{"--keys", "hot"}, "--keys must be one of uniform, zipf, got 'hot'"},
  };
  for (const auto& [args, message] : cases) {
    KvOptions o;
    const ParseOutcome r = Parse(args, &o);
    EXPECT_EQ(r.kind, ParseOutcome::Kind::kError) << message;
    EXPECT_EQ(r.message, message);
  }
}

}  // namespace
}  // namespace partita::bench::kv
