// The bounds a batch runs under (exec/query_guard.h): the per-statement
// memory limit on intermediate results, the batch's time limit, and
// Engine::RequestCancel from another thread. Each failure rolls the whole
// transaction back.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "errors.pb.h"
#include "testing/engine_fixture.h"

namespace partita {
namespace {

using testing::Binary;
using testing::Col;
using testing::ConstInt;
using testing::Node;

constexpr ValueType kBig = ValueType::kBigInt;
constexpr int kRows = 300;

// N(X BIGINT) with kRows rows 0..kRows-1. Statements: "insert" (one row),
// "cross4": N x N x N x N keeping nothing (X < 0 on the last join: it runs
// through kRows^4 pairs), "sortedCross": N x N sorted (kRows^2 kept rows),
// "hashSelf": N hash-joined to N on X, "distinctCross": DISTINCT of N x N.
class QueryBoundsTest : public testing::EngineFixture {
 protected:
  void SetUp() override {
    catalog_.Table("N").Column("X", kBig, 0, false);
    catalog_.Statement("insert", catalog_.InsertParams("N"), catalog_.ColumnTypes("N"));
    catalog_.Statement("cross4", Cross(4, true), {});
    proto::PlanNode sort = Node(proto::PLAN_NODE_KIND_SORT, {Cross(2, false)}, {{"A", kBig}, {"B", kBig}});
    *sort.mutable_sort()->add_keys()->mutable_expression() = Col(1, kBig);
    catalog_.Statement("sortedCross", std::move(sort), {});
    proto::PlanNode hash = Node(proto::PLAN_NODE_KIND_HASH_JOIN, {catalog_.SeqScan("N"), catalog_.SeqScan("N")},
                                {{"A", kBig}, {"B", kBig}});
    *hash.mutable_hash_join()->add_outer_keys() = Col(0, kBig);
    *hash.mutable_hash_join()->add_inner_keys() = Col(0, kBig);
    catalog_.Statement("hashSelf", std::move(hash), {});
    proto::PlanNode distinct = Node(proto::PLAN_NODE_KIND_DISTINCT, {Cross(2, false)}, {{"A", kBig}, {"B", kBig}});
    catalog_.Statement("distinctCross", std::move(distinct), {});
  }

  // N joined to itself `n` times by nested loops; with `nothing_passes` the
  // last join's predicate (first column < 0) rejects every pair.
  proto::PlanNode Cross(int n, bool nothing_passes) {
    proto::PlanNode tree = catalog_.SeqScan("N");
    testing::OutputColumns cols = {{"A", kBig}};
    for (int i = 1; i < n; ++i) {
      cols.emplace_back("C" + std::to_string(i), kBig);
      tree = Node(proto::PLAN_NODE_KIND_NEST_LOOP_JOIN, {std::move(tree), catalog_.SeqScan("N")}, cols);
      if (nothing_passes && i == n - 1) {
        *tree.mutable_nest_loop_join()->mutable_predicate() =
            Binary(proto::EXPRESSION_KIND_LESS, Col(0, kBig), ConstInt(0));
      }
    }
    return tree;
  }

  void OpenWithRows(const EngineOptions& options) {
    ASSERT_NO_FATAL_FAILURE(OpenWith(options));
    for (int i = 0; i < kRows; ++i) ASSERT_TRUE(Run("insert", {Value::BigInt(i)}).ok());
  }

  // Runs insert(-1) then `statement` in one final batch under `time_limit_ms`.
  Status InsertThen(const std::string& statement, int64_t time_limit_ms) {
    BatchOptions options;
    options.time_limit_ms = time_limit_ms;
    const std::vector<StatementCall> calls = {Call("insert", {Value::BigInt(-1)}), Call(statement, {})};
    return engine_->ExecuteBatch(calls, options, &results_);
  }
};

TEST_F(QueryBoundsTest, SortPastTheMemoryLimitFailsNamingTheOperatorAndRollsBack) {
  EngineOptions options;
  options.query_memory_bytes = 256 << 10;
  OpenWithRows(options);
  const Status s = InsertThen("sortedCross", 0);
  EXPECT_EQ(s.code(), proto::ERROR_CODE_QUERY_MEMORY_LIMIT) << s.ToString();
  EXPECT_NE(s.message().find("sort needs more than"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("262144 bytes"), std::string::npos) << s.message();
  EXPECT_EQ(RowCount("N"), kRows);
  EXPECT_EQ(results_.table_count(), 0);
}

TEST_F(QueryBoundsTest, HashJoinBuildPastTheMemoryLimitFails) {
  EngineOptions options;
  options.query_memory_bytes = 4 << 10;
  OpenWithRows(options);
  const Status s = Run("hashSelf");
  EXPECT_EQ(s.code(), proto::ERROR_CODE_QUERY_MEMORY_LIMIT) << s.ToString();
  EXPECT_NE(s.message().find("hash join"), std::string::npos) << s.message();
}

TEST_F(QueryBoundsTest, DistinctPastTheMemoryLimitFailsNamingIt) {
  EngineOptions options;
  options.query_memory_bytes = 64 << 10;
  OpenWithRows(options);
  const Status s = Run("distinctCross");
  EXPECT_EQ(s.code(), proto::ERROR_CODE_QUERY_MEMORY_LIMIT) << s.ToString();
  EXPECT_NE(s.message().find("DISTINCT needs more than"), std::string::npos) << s.message();
}

TEST_F(QueryBoundsTest, ZeroMemoryLimitMeansUnbounded) {
  EngineOptions options;
  options.query_memory_bytes = 0;
  OpenWithRows(options);
  ASSERT_TRUE(Run("sortedCross").ok());
  EXPECT_EQ(Table(0).row_count(), kRows * kRows);
  ASSERT_TRUE(Run("hashSelf").ok());
  EXPECT_EQ(Table(0).row_count(), kRows);
}

TEST_F(QueryBoundsTest, StatementPastTheTimeLimitFailsWithElapsedAndLimitAndRollsBack) {
  OpenWithRows(EngineOptions{});
  const Status s = InsertThen("cross4", 50);
  EXPECT_EQ(s.code(), proto::ERROR_CODE_TRANSACTION_TIMEOUT) << s.ToString();
  EXPECT_NE(s.message().find("past its time limit of 0.050 s"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("rolled back"), std::string::npos) << s.message();
  EXPECT_EQ(RowCount("N"), kRows);
  EXPECT_FALSE(engine_->in_transaction());
  // The next batch has its own limit (none here) and runs.
  ASSERT_TRUE(Run("hashSelf").ok());
}

TEST_F(QueryBoundsTest, CancelFromAnotherThreadStopsTheRunningBatchAndRollsBack) {
  OpenWithRows(EngineOptions{});
  std::atomic<bool> done{false};
  // Keeps asking until the batch returns: a request made before the batch
  // started is forgotten when it starts, so one request could miss it.
  std::thread canceller([&] {
    while (!done.load()) engine_->RequestCancel();
  });
  const Status s = InsertThen("cross4", 0);
  done.store(true);
  canceller.join();
  EXPECT_EQ(s.code(), proto::ERROR_CODE_CANCELLED) << s.ToString();
  EXPECT_EQ(RowCount("N"), kRows);
}

TEST_F(QueryBoundsTest, CancelRequestedBetweenBatchesIsForgotten) {
  OpenWithRows(EngineOptions{});
  engine_->RequestCancel();
  EXPECT_TRUE(Run("hashSelf").ok());
}

}  // namespace
}  // namespace partita
