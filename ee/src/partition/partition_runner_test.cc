#include "errors.pb.h"
#include "partita/partition_runner.h"

#include <gtest/gtest.h>

#include <atomic>

#include "testing/catalog_builder.h"

namespace partita {
namespace {

// T(ID BIGINT PK) with statements "insert" and "all".
std::string Catalog() {
  testing::CatalogBuilder c;
  c.Table("T", 0).Column("ID", ValueType::kBigInt, 0, false).Index("PK_T", {0}, proto::INDEX_KIND_HASH, true, true);
  c.Statement("insert", c.InsertParams("T"), c.ColumnTypes("T"));
  c.Statement("all", c.SeqScan("T"), {});
  return c.Serialize();
}

// Runs `name` with `params` as one transaction; returns the rows or the error.
std::string RunOn(Engine& e, const std::string& name, std::vector<Value> params = {}) {
  Result<StatementId> id = e.FindStatement(name);
  if (!id.ok()) return id.status().ToString();
  const StatementCall call{id.value(), params};
  ResultSet results;
  Status s = e.ExecuteBatch({&call, 1}, BatchOptions{}, &results);
  if (!s.ok()) return s.ToString();
  return ResultTableReader::Parse(results.table(0)).value().ToString();
}

TEST(PartitionRunnerTest, EachPartitionWritesOnlyItsOwnEngine) {
  Result<std::unique_ptr<PartitionRunner>> runner = PartitionRunner::Start(Catalog(), 3);
  ASSERT_TRUE(runner.ok()) << runner.status().ToString();
  ASSERT_EQ(runner.value()->partition_count(), 3);
  std::string inserted[3];
  std::vector<std::future<void>> done;
  for (int p = 0; p < 3; ++p) {
    done.push_back(runner.value()->Submit(p, [&inserted, p](Engine& e) {
      for (int j = 0; j <= p; ++j) inserted[p] += RunOn(e, "insert", {Value::BigInt(p * 10 + j)});
    }));
  }
  for (auto& f : done) f.get();
  EXPECT_EQ(inserted[0], "1\n");
  EXPECT_EQ(inserted[2], "1\n1\n1\n");
  std::string seen[3];
  for (int p = 0; p < 3; ++p) runner.value()->Submit(p, [&seen, p](Engine& e) { seen[p] = RunOn(e, "all"); }).get();
  EXPECT_EQ(seen[0], "0\n");
  EXPECT_EQ(seen[1], "10\n11\n");
  EXPECT_EQ(seen[2], "20\n21\n22\n");
}

TEST(PartitionRunnerTest, SameKeyInDifferentPartitionsDoesNotConflict) {
  Result<std::unique_ptr<PartitionRunner>> runner = PartitionRunner::Start(Catalog(), 3);
  ASSERT_TRUE(runner.ok());
  std::string out[3];
  std::vector<std::future<void>> done;
  for (int p = 0; p < 3; ++p) {
    done.push_back(runner.value()->Submit(p, [&out, p](Engine& e) { out[p] = RunOn(e, "insert", {Value::BigInt(1)}); }));
  }
  for (auto& f : done) f.get();
  for (const std::string& o : out) EXPECT_EQ(o, "1\n");
}

TEST(PartitionRunnerTest, TasksOfOnePartitionRunInSubmissionOrder) {
  Result<std::unique_ptr<PartitionRunner>> runner = PartitionRunner::Start(Catalog(), 2);
  ASSERT_TRUE(runner.ok());
  std::vector<int> order;  // touched only by partition 1's thread until get()
  std::future<void> last;
  for (int i = 0; i < 100; ++i) last = runner.value()->Submit(1, [&order, i](Engine&) { order.push_back(i); });
  last.get();
  ASSERT_EQ(order.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(order[i], i);
}

TEST(PartitionRunnerTest, DestructionDrainsQueuedTasks) {
  std::atomic<int> ran{0};
  {
    Result<std::unique_ptr<PartitionRunner>> runner = PartitionRunner::Start(Catalog(), 3);
    ASSERT_TRUE(runner.ok());
    for (int i = 0; i < 300; ++i) runner.value()->Submit(i % 3, [&ran](Engine&) { ++ran; });
  }
  EXPECT_EQ(ran.load(), 300);
}

TEST(PartitionRunnerTest, CatalogErrorSurfacesFromStart) {
  EXPECT_EQ(PartitionRunner::Start("\xff\xff garbage", 3).status().code(), proto::ERROR_CODE_BAD_CATALOG);
  testing::CatalogBuilder c;
  c.Table("T").Column("ID", ValueType::kBigInt);
  c.Statement("s", c.IndexLookup("T", "MISSING", {testing::Param(0, ValueType::kBigInt)}), {ValueType::kBigInt});
  Result<std::unique_ptr<PartitionRunner>> runner = PartitionRunner::Start(c.Serialize(), 3);
  EXPECT_EQ(runner.status().code(), proto::ERROR_CODE_BAD_PLAN);
  EXPECT_NE(runner.status().message().find("MISSING"), std::string::npos) << runner.status().message();
}

TEST(PartitionRunnerTest, ZeroPartitionsIsABadParameter) {
  EXPECT_EQ(PartitionRunner::Start(Catalog(), 0).status().code(), proto::ERROR_CODE_BAD_PARAMETER);
}

}  // namespace
}  // namespace partita
