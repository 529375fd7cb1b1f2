#include "write_log.h"

#include <gtest/gtest.h>

namespace partita::bench::kv {
namespace {

using Seqs = std::vector<int64_t>;

TEST(WriteLogTest, shouldKeepOnlyTheLastOfSequentialPuts) {
  WriteLog log(2);
  log.Acknowledged(0, 1, 10, 20);
  log.Acknowledged(0, 2, 30, 40);  // sent after 1 was answered
  EXPECT_EQ(log.Candidates(0), Seqs{2});
  EXPECT_EQ(log.LastAcknowledged(0), 40);
  EXPECT_EQ(log.LastAcknowledged(1), WriteLog::kNever);
  EXPECT_TRUE(log.Candidates(1).empty());
}

TEST(WriteLogTest, shouldKeepEveryOverlappingPut) {
  WriteLog log(1);
  log.Acknowledged(0, 1, 10, 50);
  log.Acknowledged(0, 2, 20, 40);  // sent before 1 was answered: order unknown
  EXPECT_EQ(log.Candidates(0), (Seqs{1, 2}));
  log.Acknowledged(0, 3, 60, 70);  // sent after both were answered
  EXPECT_EQ(log.Candidates(0), Seqs{3});
}

TEST(WriteLogTest, shouldMakeAKeyUnverifiableAfterAnUnknownOutcome) {
  WriteLog log(1);
  log.Acknowledged(0, 1, 10, 20);
  log.OutcomeUnknown(0);
  EXPECT_TRUE(log.IsUncertain(0));
  EXPECT_TRUE(log.Candidates(0).empty());
}

}  // namespace
}  // namespace partita::bench::kv
