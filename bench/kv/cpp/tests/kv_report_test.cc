#include "kv_report.h"

#include <gtest/gtest.h>

namespace partita::bench::kv {
namespace {

KvReport Sample() {
  KvReport r;
  r.window.seconds = 2;
  r.window.gets = 900;
  r.window.puts = 100;
  r.window.misses = 3;
  r.window.failed = 0;
  r.window.latency = {1000, 0.25, 0.2, 0.5, 0.75, 1.5, 2.25};
  r.verification.checked = 1000;
  return r;
}

TEST(KvReportTest, shouldPrintTheJavaDriversLines) {
  const std::string text = Sample().Text();
  EXPECT_NE(text.find("kv: 500 ops/s over 2.0 s (async, uniform keys, 90% gets, 1,024-byte values)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("kv: latency ms: avg 0.250, p50 0.200, p95 0.500, p99 0.750, p99.9 1.500, max 2.250\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("kv: gets 900 (found nothing: 3), puts 100, failed 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("kv: verification: 1,000 keys checked, 0 mismatches, 0 unverifiable: CONSISTENT\n"),
            std::string::npos)
      << text;
}

TEST(KvReportTest, shouldReportMismatchesAndTheFirstFailure) {
  KvReport r = Sample();
  r.verification.mismatches = 1;
  r.verification.examples = {"k1: no row, expected the value of write 5"};
  r.first_failure = "Put: UNEXPECTED_FAILURE";
  const std::string text = r.Text();
  EXPECT_NE(text.find("INCONSISTENT"), std::string::npos);
  EXPECT_NE(text.find("kv:   k1: no row"), std::string::npos);
  EXPECT_NE(text.find("kv: first failure: Put: UNEXPECTED_FAILURE"), std::string::npos);
  EXPECT_FALSE(r.consistent());
}

TEST(KvReportTest, shouldWriteTheJavaDriversJsonFields) {
  const std::string json = Sample().Json().ToString();
  for (const char* field :
       {"\"workload\" : \"kv\"", "\"driver\" : \"cpp\"", "\"tps\" : 500", "\"p50_ms\" : 0.2", "\"p99_ms\" : 0.75",
        "\"p999_ms\" : 1.5", "\"gets\" : 900", "\"puts\" : 100", "\"get_misses\" : 3", "\"failed\" : 0",
        "\"verified\" : 1000", "\"mismatches\" : 0", "\"unverifiable\" : 0", "\"consistent\" : true",
        "\"duration_s\" : 2", "\"warmup_s\" : 5", "\"mode\" : \"async\"", "\"threads\" : 1", "\"ratelimit\" : 0",
        "\"servers\" : \"127.0.0.1:21212\"", "\"preload\" : 100000", "\"get_ratio\" : 0.9", "\"key_size\" : 32",
        "\"value_size\" : 1024", "\"keys\" : \"uniform\""}) {
    EXPECT_NE(json.find(field), std::string::npos) << field << " in " << json;
  }
}

}  // namespace
}  // namespace partita::bench::kv
