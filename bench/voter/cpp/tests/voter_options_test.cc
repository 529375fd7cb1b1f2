#include "voter_options.h"

#include <gtest/gtest.h>

#include <vector>

namespace partita::bench::voter {
namespace {

ParseOutcome Parse(std::vector<const char*> args, VoterOptions* o) {
  args.insert(args.begin(), "voter_driver");
  return VoterOptions::Parse(static_cast<int>(args.size()), args.data(), o);
}

TEST(VoterOptionsTest, shouldDefaultLikeTheJavaDriver) {
  VoterOptions o;
  ASSERT_EQ(Parse({}, &o).kind, ParseOutcome::Kind::kRun);
  EXPECT_EQ(o.servers, std::vector<std::string>{"127.0.0.1:21212"});
  EXPECT_EQ(o.duration_s, 30);
  EXPECT_EQ(o.warmup_s, 5);
  EXPECT_TRUE(o.async());
  EXPECT_EQ(o.threads, 16);
  EXPECT_EQ(o.ratelimit, 0);
  EXPECT_EQ(o.contestants, 6);
  EXPECT_EQ(o.maxvotes, 2);
  EXPECT_EQ(o.display_interval_s, 5);
  EXPECT_EQ(o.json, "");
}

TEST(VoterOptionsTest, shouldReadEveryOption) {
  VoterOptions o;
  const ParseOutcome r = Parse({"--servers", "a:1,b:2", "--duration", "3", "--warmup", "0", "--mode", "sync",
                                "--threads", "4", "--ratelimit", "50000", "--contestants", "10", "--maxvotes", "3",
                                "--display-interval", "0.5", "--json", "out.json"},
                               &o);
  ASSERT_EQ(r.kind, ParseOutcome::Kind::kRun) << r.message;
  EXPECT_EQ(o.servers.size(), 2u);
  EXPECT_FALSE(o.async());
  EXPECT_EQ(o.threads, 4);
  EXPECT_EQ(o.ratelimit, 50000);
  EXPECT_EQ(o.contestants, 10);
  EXPECT_EQ(o.maxvotes, 3);
  EXPECT_EQ(o.display_interval_s, 0.5);
  EXPECT_EQ(o.json, "out.json");
}

TEST(VoterOptionsTest, shouldRejectValuesOutOfRangeNamingTheOption) {
  const std::vector<std::pair<std::vector<const char*>, std::string>> cases = {
      {{"--duration", "0"}, "--duration must be more than 0 seconds, got 0"},
      {{"--warmup", "-1"}, "--warmup must be 0 or more seconds, got -1"},
      {{"--threads", "0"}, "--threads must be at least 1, got 0"},
      {{"--ratelimit", "-5"}, "--ratelimit must be 0 (none) or more calls/s, got -5"},
      {{"--contestants", "1001"}, "--contestants must be between 1 and 1000, got 1001"},
      {{"--maxvotes", "0"}, "--maxvotes must be at least 1, got 0"},
      {{"--display-interval", "0"}, "--display-interval must be more than 0 seconds, got 0"},
  };
  for (const auto& [args, message] : cases) {
    VoterOptions o;
    const ParseOutcome r = Parse(args, &o);
    EXPECT_EQ(r.kind, ParseOutcome::Kind::kError) << message;
    EXPECT_EQ(r.message, message);
  }
}

TEST(VoterOptionsTest, shouldPutTheUsageInTheHelpOutcome) {
  VoterOptions o;
  const ParseOutcome r = Parse({"--help"}, &o);
  EXPECT_EQ(r.kind, ParseOutcome::Kind::kHelp);
  EXPECT_NE(r.message.find("--ratelimit CALLS/S"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("Exit codes"), std::string::npos);
}

}  // namespace
}  // namespace partita::bench::voter
