// Determinism: the same transactions on two engines whose tuples were placed
// differently in memory (one first filled and emptied its table with other
// rows) give the same rows in the same order — ties of ORDER BY, duplicates
// of ordered and hash index lookups — and the same write hashes.
#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "partita/engine.h"
#include "testing/catalog_builder.h"

namespace partita {
namespace {

using proto::INDEX_KIND_HASH;
using proto::INDEX_KIND_ORDERED;
using testing::Col;
using testing::Param;

constexpr ValueType kBig = ValueType::kBigInt;
constexpr ValueType kInt = ValueType::kInteger;
constexpr ValueType kText = ValueType::kVarchar;

// ITEMS(ID BIGINT PK, K INTEGER, NOTE VARCHAR(100) out of line, TAG
// VARCHAR(4) inline), a non-unique ordered and a non-unique hash index on K,
// and a COUNT(*) view per K.
proto::Catalog ItemsCatalog() {
  testing::CatalogBuilder c;
  c.Table("ITEMS")
      .Column("ID", kBig, 0, false)
      .Column("K", kInt, 0, false)
      .Column("NOTE", kText, 100, true)
      .Column("TAG", kText, 4, true)
      .Index("PK_ITEMS", {0}, INDEX_KIND_HASH, true, true)
      .Index("BY_K", {1}, INDEX_KIND_ORDERED, false)
      .Index("BY_K_HASH", {1}, INDEX_KIND_HASH, false);
  c.View("PER_K", "ITEMS", {1}, {{proto::AGGREGATE_KIND_COUNT_STAR, -1, "N"}});
  const auto by_id = [&] { return c.IndexLookup("ITEMS", "PK_ITEMS", {Param(0, kBig)}); };
  c.Statement("insert", c.InsertParams("ITEMS"), c.ColumnTypes("ITEMS"));
  c.Statement("delete", c.Delete("ITEMS", by_id()), {kBig});
  c.Statement("setK", c.Update("ITEMS", by_id(), {{1, Param(1, kInt)}}), {kBig, kInt});
  c.Statement("setNote", c.Update("ITEMS", by_id(), {{2, Param(1, kText)}}), {kBig, kText});
  c.Statement("byK", testing::Project(c.IndexLookup("ITEMS", "BY_K", {Param(0, kInt)}), {0}), {kInt});
  c.Statement("byKHash", testing::Project(c.IndexLookup("ITEMS", "BY_K_HASH", {Param(0, kInt)}), {0}), {kInt});
  // ORDER BY K through the ordered index, both directions.
  c.Statement("orderByK", testing::Project(c.IndexRange("ITEMS", "BY_K", {}, true, {}, true), {0, 1}), {});
  c.Statement("orderByKDesc", testing::Project(c.IndexRange("ITEMS", "BY_K", {}, true, {}, true, true), {0, 1}),
              {});
  // ORDER BY K as a sort of a table scan.
  proto::PlanNode sort = testing::Node(proto::PLAN_NODE_KIND_SORT, {c.SeqScan("ITEMS")},
                                       {{"ID", kBig}, {"K", kInt}, {"NOTE", kText}, {"TAG", kText}});
  *sort.mutable_sort()->add_keys()->mutable_expression() = Col(1, kInt);
  c.Statement("sortByK", testing::Project(std::move(sort), {0, 1}), {});
  return c.catalog();
}

// One engine and the calls made on it.
class Replica {
 public:
  Replica() {
    Result<std::unique_ptr<Engine>> e = Engine::Open(ItemsCatalog(), EngineOptions{});
    EXPECT_TRUE(e.ok()) << e.status().ToString();
    engine_ = std::move(e).value();
  }

  // Runs one statement as a batch; returns the error text or "".
  std::string Run(const std::string& name, std::vector<Value> params, bool final_batch = true) {
    Result<StatementId> id = engine_->FindStatement(name);
    if (!id.ok()) return id.status().ToString();
    params_.push_back(std::move(params));
    const StatementCall call{id.value(), params_.back()};
    BatchOptions options;
    options.final_batch = final_batch;
    const Status s = engine_->ExecuteBatch({&call, 1}, options, &results_);
    hashes_.push_back(results_.write_hash());
    return s.ok() ? "" : s.ToString();
  }

  std::string Insert(int64_t id, int32_t k, bool final_batch = true) {
    return Run("insert",
               {Value::BigInt(id), Value::Integer(k), Text("note of " + std::to_string(id) + Pad()),
                Text("t" + std::to_string(id % 10))},
               final_batch);
  }

  // The rows of a query, one line each.
  std::string Rows(const std::string& name, std::vector<Value> params = {}) {
    const std::string error = Run(name, std::move(params));
    if (!error.empty()) return "ERROR: " + error;
    Result<ResultTableReader> table = ResultTableReader::Parse(results_.table(0));
    return table.ok() ? table.value().ToString() : table.status().ToString();
  }

  // The write hash of every batch run so far.
  const std::vector<uint64_t>& hashes() const { return hashes_; }
  uint64_t last_hash() const { return hashes_.back(); }
  Engine& engine() { return *engine_; }

 private:
  static std::string Pad() { return std::string(60, '.'); }
  Value Text(std::string s) {
    strings_.push_back(std::move(s));
    return Value::Varchar(strings_.back());
  }

  std::unique_ptr<Engine> engine_;
  ResultSet results_;
  std::deque<std::vector<Value>> params_;
  std::deque<std::string> strings_;
  std::vector<uint64_t> hashes_;
};

// Fills the table with other rows and deletes them again, so the rows that
// follow land in recycled slots (and different addresses).
void InsertAndDeleteGarbage(Replica* r) {
  for (int64_t id = 1000; id < 1050; ++id) ASSERT_EQ(r->Insert(id, static_cast<int32_t>(id % 3)), "");
  for (int64_t id = 1000; id < 1050; ++id) ASSERT_EQ(r->Run("delete", {Value::BigInt(id)}), "");
}

// The same transactions for both replicas: inserts with many equal keys, a
// key change, deletes of a key's first rows, a rolled-back transaction and
// more inserts.
void Workload(Replica* r) {
  for (int64_t id = 1; id <= 24; ++id) ASSERT_EQ(r->Insert(id, static_cast<int32_t>(id % 3)), "");
  ASSERT_EQ(r->Run("setK", {Value::BigInt(4), Value::Integer(2)}), "");
  ASSERT_EQ(r->Run("delete", {Value::BigInt(3)}), "");
  ASSERT_EQ(r->Run("delete", {Value::BigInt(6)}), "");
  ASSERT_EQ(r->Insert(25, 1), "");
  ASSERT_EQ(r->Insert(26, 1, false), "");
  ASSERT_NE(r->Insert(1, 1), "");  // a duplicate key rolls 26 back too
  ASSERT_EQ(r->Insert(27, 1), "");
  ASSERT_EQ(r->Insert(28, 0), "");
  ASSERT_EQ(r->Run("setNote", {Value::BigInt(5), Value::Varchar("changed")}), "");
}

// Rows of one-column results as "a b c".
std::string Ids(const std::string& rows) {
  std::string out;
  for (const char c : rows) out += c == '\n' ? ' ' : c;
  if (!out.empty()) out.pop_back();
  return out;
}

class DeterminismTest : public ::testing::Test {
 protected:
  void SetUp() override {
    InsertAndDeleteGarbage(&recycled_);
    fresh_hashes_before_ = fresh_.hashes().size();
    recycled_hashes_before_ = recycled_.hashes().size();
    Workload(&fresh_);
    Workload(&recycled_);
  }

  Replica fresh_;
  Replica recycled_;
  size_t fresh_hashes_before_ = 0;
  size_t recycled_hashes_before_ = 0;
};

TEST_F(DeterminismTest, OrderedIndexReturnsDuplicatesInInsertOrder) {
  EXPECT_EQ(Ids(fresh_.Rows("byK", {Value::Integer(1)})), "1 7 10 13 16 19 22 25 27");
  EXPECT_EQ(Ids(fresh_.Rows("byK", {Value::Integer(2)})), "2 4 5 8 11 14 17 20 23");
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(fresh_.Rows("byK", {Value::Integer(k)}), recycled_.Rows("byK", {Value::Integer(k)})) << k;
  }
}

TEST_F(DeterminismTest, HashIndexReturnsDuplicatesInInsertOrder) {
  EXPECT_EQ(Ids(fresh_.Rows("byKHash", {Value::Integer(0)})), "9 12 15 18 21 24 28");
  EXPECT_EQ(Ids(fresh_.Rows("byKHash", {Value::Integer(2)})), "2 4 5 8 11 14 17 20 23");
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(fresh_.Rows("byKHash", {Value::Integer(k)}), recycled_.Rows("byKHash", {Value::Integer(k)})) << k;
  }
}

TEST_F(DeterminismTest, OrderByWithTiesIsTheSameOnBoth) {
  const std::string forward = fresh_.Rows("orderByK");
  EXPECT_EQ(forward.substr(0, 12), "9|0\n12|0\n15|");
  EXPECT_EQ(forward, recycled_.Rows("orderByK"));
  EXPECT_EQ(fresh_.Rows("orderByKDesc"), recycled_.Rows("orderByKDesc"));
  EXPECT_EQ(fresh_.Rows("sortByK"), recycled_.Rows("sortByK"));
}

TEST_F(DeterminismTest, WriteHashesAreTheSameOnBoth) {
  const std::vector<uint64_t> a(fresh_.hashes().begin() + fresh_hashes_before_, fresh_.hashes().end());
  const std::vector<uint64_t> b(recycled_.hashes().begin() + recycled_hashes_before_, recycled_.hashes().end());
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(a, b);
  EXPECT_NE(a.back(), 0u);
}

TEST(WriteHashTest, IsZeroForAReadOnlyTransaction) {
  Replica r;
  ASSERT_EQ(r.Insert(1, 1), "");
  ASSERT_EQ(r.Rows("byK", {Value::Integer(1)}), "1\n");
  EXPECT_EQ(r.last_hash(), 0u);
}

TEST(WriteHashTest, ChangesWhenAWrittenValueChanges) {
  Replica a, b, c;
  ASSERT_EQ(a.Insert(1, 1), "");
  ASSERT_EQ(b.Insert(1, 1), "");
  ASSERT_EQ(c.Insert(1, 2), "");
  EXPECT_EQ(a.last_hash(), b.last_hash());
  EXPECT_NE(a.last_hash(), c.last_hash());
  ASSERT_EQ(a.Run("setNote", {Value::BigInt(1), Value::Varchar("x")}), "");
  ASSERT_EQ(b.Run("setNote", {Value::BigInt(1), Value::Varchar("y")}), "");
  EXPECT_NE(a.last_hash(), b.last_hash());
}

TEST(WriteHashTest, AccumulatesOverTheBatchesOfOneTransaction) {
  Replica r;
  ASSERT_EQ(r.Run("insert", {Value::BigInt(1), Value::Integer(1), Value::Null(kText), Value::Null(kText)}, false), "");
  const uint64_t after_insert = r.last_hash();
  EXPECT_NE(after_insert, 0u);
  ASSERT_EQ(r.Run("byK", {Value::Integer(1)}, false), "");
  EXPECT_EQ(r.last_hash(), after_insert);  // a read-only batch adds nothing
  ASSERT_EQ(r.Run("setK", {Value::BigInt(1), Value::Integer(2)}, true), "");
  EXPECT_NE(r.last_hash(), after_insert);
  // Committed: the next transaction starts from 0 again.
  ASSERT_EQ(r.Run("byK", {Value::Integer(2)}), "");
  EXPECT_EQ(r.last_hash(), 0u);
}

TEST(WriteHashTest, RestartsAfterARollback) {
  Replica r;
  ASSERT_EQ(r.Insert(1, 1), "");
  const uint64_t committed = r.last_hash();
  ASSERT_EQ(r.Run("setK", {Value::BigInt(1), Value::Integer(2)}, false), "");
  r.engine().Rollback();
  ASSERT_EQ(r.Rows("byK", {Value::Integer(1)}), "1\n");
  EXPECT_EQ(r.last_hash(), 0u);
  // The same write again hashes as it did the first time.
  Replica other;
  ASSERT_EQ(other.Insert(1, 1), "");
  EXPECT_EQ(other.last_hash(), committed);
}

}  // namespace
}  // namespace partita
