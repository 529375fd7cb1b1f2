#include "partita/client/latency_histogram.h"

#include <gtest/gtest.h>

namespace partita::client {
namespace {

TEST(LatencyHistogramTest, CountsSmallValuesExactly) {
  LatencyHistogram h;
  for (uint64_t v = 1; v <= 100; ++v) h.Record(v);
  EXPECT_EQ(h.count(), 100u);
  EXPECT_EQ(h.Percentile(50), 50u);
  EXPECT_EQ(h.Percentile(99), 99u);
  EXPECT_EQ(h.Percentile(100), 100u);
  EXPECT_EQ(h.max(), 100u);
  EXPECT_DOUBLE_EQ(h.Mean(), 50.5);
}

TEST(LatencyHistogramTest, KeepsLargeValuesToThreeSignificantDigits) {
  for (uint64_t v : std::initializer_list<uint64_t>{2048, 12345, 987654, 1234567890, LatencyHistogram::kMaxMicros}) {
    const uint64_t high = LatencyHistogram::HighestEquivalent(LatencyHistogram::IndexOf(v));
    EXPECT_GE(high, v);
    EXPECT_LE(high - v, v / 1000) << v;
  }
}

TEST(LatencyHistogramTest, BucketsAreContiguousAndOrdered) {
  for (uint64_t v = 2'000; v < 300'000; v += 7) {
    EXPECT_LE(LatencyHistogram::IndexOf(v), LatencyHistogram::IndexOf(v + 1));
    EXPECT_LE(v, LatencyHistogram::HighestEquivalent(LatencyHistogram::IndexOf(v)));
  }
}

TEST(LatencyHistogramTest, ReportsTailPercentilesAndClampsHugeValues) {
  LatencyHistogram h;
  for (int i = 0; i < 990; ++i) h.Record(100);
  for (int i = 0; i < 10; ++i) h.Record(50'000);
  h.Record(LatencyHistogram::kMaxMicros * 10);
  EXPECT_EQ(h.Percentile(50), 100u);
  EXPECT_NEAR(static_cast<double>(h.Percentile(99.9)), 50'000.0, 50.0);
  EXPECT_GE(h.Percentile(100), LatencyHistogram::kMaxMicros);
}

TEST(LatencyHistogramTest, ResetAndMerge) {
  LatencyHistogram a, b;
  a.Record(10);
  b.Record(30);
  a.Merge(b);
  EXPECT_EQ(a.count(), 2u);
  EXPECT_EQ(a.max(), 30u);
  a.Reset();
  EXPECT_EQ(a.count(), 0u);
  EXPECT_EQ(a.Percentile(99), 0u);
}

}  // namespace
}  // namespace partita::client
