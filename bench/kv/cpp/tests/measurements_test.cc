#include "measurements.h"

#include <gtest/gtest.h>

namespace partita::bench::kv {
namespace {

TEST(MeasurementsTest, shouldCountIntervalsAndResetThem) {
  Measurements m;
  m.RecordGet(1'000'000, true);
  m.RecordGet(3'000'000, false);
  m.RecordPut(2'000'000);
  m.RecordFailure();
  const Measurements::IntervalStats s = m.Interval();
  EXPECT_EQ(s.gets, 2u);
  EXPECT_EQ(s.misses, 1u);
  EXPECT_EQ(s.puts, 1u);
  EXPECT_EQ(s.failed, 1u);
  EXPECT_EQ(s.operations(), 4u);
  EXPECT_NEAR(s.p99_ms, 3, 0.01);
  EXPECT_EQ(m.Interval().operations(), 0u);
}

TEST(MeasurementsTest, shouldLeaveWarmupAndLaterOperationsOutOfTheWindow) {
  Measurements m;
  m.RecordPut(9'000'000);  // warm-up
  EXPECT_EQ(m.OpenWindow().puts, 1u);
  m.RecordGet(1'000'000, true);
  m.Interval();  // a progress line inside the window
  m.RecordPut(2'000'000);
  m.RecordFailure();
  const Measurements::WindowStats w = m.CloseWindow();
  m.RecordGet(1'000'000, true);  // after the window
  EXPECT_EQ(w.gets, 1u);
  EXPECT_EQ(w.puts, 1u);
  EXPECT_EQ(w.failed, 1u);
  EXPECT_EQ(w.latency.count, 2u);
  EXPECT_NEAR(w.latency.max_ms, 2, 0.01);
  EXPECT_EQ(w.last_interval.puts, 1u);
  EXPECT_GT(w.seconds, 0);
  EXPECT_NEAR(w.Throughput(), 3 / w.seconds, 1e-6);
}

}  // namespace
}  // namespace partita::bench::kv
