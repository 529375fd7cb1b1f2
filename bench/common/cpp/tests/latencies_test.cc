#include "latencies.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace partita::bench {
namespace {

TEST(LatenciesTest, shouldSummarizeInMilliseconds) {
  Latencies l;
  for (int i = 1; i <= 100; ++i) l.Record(int64_t{i} * 1'000'000);  // 1..100 ms
  const LatencySummary s = l.TakeInterval();
  EXPECT_EQ(s.count, 100u);
  EXPECT_NEAR(s.avg_ms, 50.5, 0.1);
  EXPECT_NEAR(s.p50_ms, 50, 0.1);
  EXPECT_NEAR(s.p99_ms, 99, 0.1);
  EXPECT_NEAR(s.max_ms, 100, 0.1);
}

TEST(LatenciesTest, shouldStartANewIntervalAfterEachTake) {
  Latencies l;
  l.Record(5'000);
  EXPECT_EQ(l.TakeInterval().count, 1u);
  EXPECT_EQ(l.TakeInterval().count, 0u);
  EXPECT_EQ(l.TakeInterval().p99_ms, 0);
}

TEST(LatenciesTest, shouldCountOnlyWhileMeasuring) {
  Latencies l;
  l.Record(1'000'000);  // warm-up
  l.StartMeasuring();
  l.Record(2'000'000);
  l.TakeInterval();  // progress lines do not take from the measured period
  l.Record(3'000'000);
  l.StopMeasuring();
  l.Record(4'000'000);
  const LatencySummary m = l.Measured();
  EXPECT_EQ(m.count, 2u);
  EXPECT_NEAR(m.max_ms, 3, 0.01);
}

TEST(LatenciesTest, shouldClampToAtLeastOneMicrosecond) {
  Latencies l;
  l.StartMeasuring();
  l.Record(-5);
  l.Record(10);
  EXPECT_EQ(l.Measured().count, 2u);
  EXPECT_NEAR(l.Measured().max_ms, 0.001, 1e-9);
}

TEST(LatenciesTest, shouldLoseNothingFromTheMeasuredPeriodWithManyRecorders) {
  Latencies l;
  l.StartMeasuring();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&l] {
      for (int i = 0; i < 50'000; ++i) l.Record(1'000 * (i % 500 + 1));
    });
  }
  for (int i = 0; i < 100; ++i) l.TakeInterval();
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(l.Measured().count, 200'000u);
}

}  // namespace
}  // namespace partita::bench
