#include "voter_report.h"

#include <gtest/gtest.h>

namespace partita::bench::voter {
namespace {

VoterReport Sample() {
  VoterReport r;
  r.settings.description = "async firehose against 127.0.0.1:1 (2 partition(s))";
  r.settings.mode = "async";
  r.settings.servers = "127.0.0.1:1";
  r.settings.partitions = 2;
  r.settings.warmup_s = 8;
  r.settings.contestants = 6;
  r.settings.maxvotes = 2;
  r.seconds = 2;
  r.latency = {10, 0.5, 0.4, 0.9, 1.25, 2, 3, 2.5};
  r.measured = {1000, 200, 10, 3};
  r.standings.entries = {{1, "Edwina Burnam", 1234567}, {2, "Tabatha Gehling", 89}};
  r.consistency = {true, {"all (COUNT(*) FROM votes)  driver 1 database 1"}};
  return r;
}

TEST(VoterReportTest, shouldCountTpsFromAnsweredCalls) { EXPECT_DOUBLE_EQ(Sample().Tps(), 605); }

TEST(VoterReportTest, shouldPrintTheJavaDriversLines) {
  const std::string text = Sample().Text();
  EXPECT_NE(text.find("voter: async firehose against 127.0.0.1:1 (2 partition(s)), 2.0 s measured\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  throughput  605 TPS (1,210 answered)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  latency ms  avg 0.500  p50 0.400  p95 0.900  p99 1.250  p99.9 2.000  max 3.000\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("accepted 1,000  rejected over the limit 200  rejected invalid contestant 10  failed 3"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("     1. Edwina Burnam            #1      1,234,567\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  consistency OK: "), std::string::npos) << text;
}

TEST(VoterReportTest, shouldSayFailedWhenInconsistent) {
  VoterReport r = Sample();
  r.consistency.consistent = false;
  EXPECT_NE(r.Text().find("  consistency FAILED: "), std::string::npos);
  EXPECT_NE(r.Json().ToString().find("\"consistent\" : false"), std::string::npos);
}

TEST(VoterReportTest, shouldWriteTheJavaDriversJsonFields) {
  const std::string json = Sample().Json().ToString();
  for (const char* field :
       {"\"driver\" : \"cpp\"", "\"tps\" : 605", "\"avg_ms\" : 0.5", "\"p50_ms\" : 0.4", "\"p95_ms\" : 0.9",
        "\"p99_ms\" : 1.25", "\"p999_ms\" : 2", "\"max_ms\" : 3", "\"p9999_ms\" : 2.5", "\"answered\" : 1210", "\"accepted\" : 1000",
        "\"over_limit\" : 200", "\"invalid\" : 10", "\"failed\" : 3", "\"consistent\" : true", "\"duration_s\" : 2",
        "\"mode\" : \"async\"", "\"threads\" : 1", "\"ratelimit\" : 0", "\"servers\" : \"127.0.0.1:1\"",
        "\"partitions\" : 2", "\"warmup_s\" : 8", "\"contestants\" : 6", "\"maxvotes\" : 2"}) {
    EXPECT_NE(json.find(field), std::string::npos) << field << " in " << json;
  }
}

}  // namespace
}  // namespace partita::bench::voter
