// PartitionPauses: the longest pause between successes per partition and
// its end; and which failures leave a call's outcome unknown.
#include "partition_pauses.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "kv_operations.h"

namespace partita::bench::kv {
namespace {

using Clock = PartitionPauses::Clock;
using namespace std::chrono_literals;

struct Line {
  int partition = -1;
  double longest_s = 0;
  long long from_ms = 0, to_ms = 0;
};

Line ParseLine(const std::string& line) {
  Line l;
  EXPECT_EQ(std::sscanf(line.c_str(), "kv: pause: partition %d longest %lf s from %lld to %lld (epoch ms)", &l.partition,
                        &l.longest_s, &l.from_ms, &l.to_ms),
            4)
      << line;
  return l;
}

TEST(PartitionPausesTest, ReportsEachPartitionsLongestPauseAndWhenItEnded) {
  const Clock::time_point start = Clock::now();
  // Keys 0 and 2 on partition 0, key 1 on partition 1, key 3 not routed.
  PartitionPauses pauses({0, 1, 0, -1}, start);
  pauses.Record(0, start + 100ms);
  pauses.Record(2, start + 200ms);
  pauses.Record(1, start + 150ms);
  pauses.Record(1, start + 3150ms);  // partition 1 pauses 3 s (a failover)
  pauses.Record(1, start + 3160ms);
  pauses.Record(0, start + 3300ms);  // partition 0's longest: 3.1 s
  pauses.Record(0, start + 3250ms);  // counted out of order: ignored
  pauses.Record(3, start + 9000ms);  // not routed: ignored
  pauses.Record(7, start + 9000ms);  // no such key: ignored
  const std::vector<std::string> lines = pauses.Lines();
  ASSERT_EQ(lines.size(), 2u);
  const Line p0 = ParseLine(lines[0]);
  const Line p1 = ParseLine(lines[1]);
  EXPECT_EQ(p0.partition, 0);
  EXPECT_DOUBLE_EQ(p0.longest_s, 3.1);
  EXPECT_EQ(p1.partition, 1);
  EXPECT_DOUBLE_EQ(p1.longest_s, 3.0);
  EXPECT_EQ(p1.to_ms - p1.from_ms, 3000);
  EXPECT_EQ(p0.to_ms - p1.to_ms, 150) << "both ends on one wall clock";
  const long long now_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_LT(std::llabs(p1.to_ms - 3150 - now_ms), 60'000) << "epoch milliseconds";
}

TEST(PartitionPausesTest, OnlyLostConnectionsTimeoutsAndOutcomeUnknownAreUnknown) {
  using client::Response;
  using client::Status;
  EXPECT_TRUE(KvOperations::OutcomeUnknown(Status(Status::Code::kConnectionLost, "lost")));
  EXPECT_TRUE(KvOperations::OutcomeUnknown(Status(Status::Code::kTimeout, "late")));
  EXPECT_FALSE(KvOperations::OutcomeUnknown(Status(Status::Code::kNoConnection, "not sent")));
  EXPECT_FALSE(KvOperations::OutcomeUnknown(Status(Status::Code::kBackpressure, "not sent")));
  Response outcome_unknown;
  outcome_unknown.status = client::ResponseStatus::kUnexpectedFailure;
  outcome_unknown.error_code = 28;
  EXPECT_TRUE(KvOperations::OutcomeUnknown(outcome_unknown));
  Response not_leader;
  not_leader.status = client::ResponseStatus::kRejected;
  not_leader.error_code = 20;
  EXPECT_FALSE(KvOperations::OutcomeUnknown(not_leader));
}

}  // namespace
}  // namespace partita::bench::kv
