#include "option_parser.h"

#include <gtest/gtest.h>

#include <vector>

namespace partita::bench {
namespace {

struct Fixture {
  double duration = 30;
  int64_t threads = 16;
  std::string mode = "async";
  std::string json;
  std::vector<std::string> servers{"127.0.0.1:21212"};
  OptionParser parser{"driver", "A test driver."};

  Fixture() {
    parser.AddDouble("--duration", "S", "measured seconds", &duration);
    parser.AddInt("--threads", "N", "threads", &threads);
    parser.AddChoice("--mode", {"async", "sync"}, "how", &mode);
    parser.AddString("--json", "FILE", "result file", &json);
    parser.AddList("--servers", "LIST", "servers", &servers);
  }

  ParseOutcome Parse(std::vector<const char*> args) {
    args.insert(args.begin(), "driver");
    return parser.Parse(static_cast<int>(args.size()), args.data());
  }
};

TEST(OptionParserTest, shouldKeepDefaultsWithoutArguments) {
  Fixture f;
  EXPECT_EQ(f.Parse({}).kind, ParseOutcome::Kind::kRun);
  EXPECT_EQ(f.duration, 30);
  EXPECT_EQ(f.threads, 16);
  EXPECT_EQ(f.mode, "async");
  EXPECT_EQ(f.servers, std::vector<std::string>{"127.0.0.1:21212"});
}

TEST(OptionParserTest, shouldReadSpaceAndEqualsForms) {
  Fixture f;
  const ParseOutcome o = f.Parse({"--duration", "2.5", "--threads=4", "--mode", "SYNC", "--json=/tmp/r.json",
                                  "--servers", "a:1, b:2"});
  ASSERT_EQ(o.kind, ParseOutcome::Kind::kRun) << o.message;
  EXPECT_EQ(f.duration, 2.5);
  EXPECT_EQ(f.threads, 4);
  EXPECT_EQ(f.mode, "sync");
  EXPECT_EQ(f.json, "/tmp/r.json");
  EXPECT_EQ(f.servers, (std::vector<std::string>{"a:1", "b:2"}));
}

TEST(OptionParserTest, shouldRejectAnUnknownOptionNamingIt) {
  Fixture f;
  const ParseOutcome o = f.Parse({"--durations", "3"});
  EXPECT_EQ(o.kind, ParseOutcome::Kind::kError);
  EXPECT_NE(o.message.find("--durations"), std::string::npos) << o.message;
}

TEST(OptionParserTest, shouldRejectAMissingValue) {
  Fixture f;
  const ParseOutcome o = f.Parse({"--threads"});
  EXPECT_EQ(o.kind, ParseOutcome::Kind::kError);
  EXPECT_NE(o.message.find("--threads needs a value"), std::string::npos) << o.message;
}

TEST(OptionParserTest, shouldRejectMalformedNumbers) {
  for (const char* bad : {"abc", "4x", "", "1.5", " 4"}) {
    Fixture f;
    const ParseOutcome o = f.Parse({"--threads", bad});
    EXPECT_EQ(o.kind, ParseOutcome::Kind::kError) << bad;
    EXPECT_NE(o.message.find("--threads needs a whole number"), std::string::npos) << o.message;
  }
  for (const char* bad : {"x", "1e", "nan", "inf", "3s"}) {
    Fixture f;
    EXPECT_EQ(f.Parse({"--duration", bad}).kind, ParseOutcome::Kind::kError) << bad;
  }
}

TEST(OptionParserTest, shouldRejectAChoiceNotOffered) {
  Fixture f;
  const ParseOutcome o = f.Parse({"--mode", "turbo"});
  EXPECT_EQ(o.kind, ParseOutcome::Kind::kError);
  EXPECT_EQ(o.message, "--mode must be one of async, sync, got 'turbo'");
}

TEST(OptionParserTest, shouldRejectEmptyListItems) {
  for (const char* bad : {"", "a:1,,b:2", "a:1,", ","}) {
    Fixture f;
    EXPECT_EQ(f.Parse({"--servers", bad}).kind, ParseOutcome::Kind::kError) << bad;
  }
}

TEST(OptionParserTest, shouldAnswerHelpAndListOptionsWithDefaults) {
  Fixture f;
  EXPECT_EQ(f.Parse({"--threads", "2", "-h"}).kind, ParseOutcome::Kind::kHelp);
  Fixture g;
  const std::string usage = g.parser.Usage();
  EXPECT_NE(usage.find("--duration S"), std::string::npos) << usage;
  EXPECT_NE(usage.find("(default: 30)"), std::string::npos) << usage;
  EXPECT_NE(usage.find("--mode async|sync"), std::string::npos) << usage;
}

TEST(OptionParserTest, shouldParseWholeNumbersOnly) {
  int64_t v = 0;
  EXPECT_TRUE(ParseInt64("+50000", &v));
  EXPECT_EQ(v, 50000);
  EXPECT_FALSE(ParseInt64("99999999999999999999", &v));
  double d = 0;
  EXPECT_TRUE(ParseFiniteDouble("0.9", &d));
  EXPECT_EQ(d, 0.9);
}

}  // namespace
}  // namespace partita::bench
