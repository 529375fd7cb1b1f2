// Engine::UpdateCatalog: schema changes on a live engine keep the data, and a
// failed change leaves the engine exactly as it was.
#include <gtest/gtest.h>

#include "errors.pb.h"
#include "partita/engine.h"
#include "testing/engine_fixture.h"

namespace partita {
namespace {

using proto::INDEX_KIND_HASH;
using proto::INDEX_KIND_ORDERED;
using testing::CatalogBuilder;
using testing::Param;

// ACC(ID BIGINT PK, CITY VARCHAR(10), BAL INTEGER) with "insert" and "all";
// options add an index on CITY, a per-city count view, and a table LOG.
struct Schema {
  bool city_index = false;
  bool unique_city = false;
  bool city_view = false;
  bool log_table = true;
  bool bal_is_bigint = false;
};

CatalogBuilder MakeCatalog(const Schema& s) {
  CatalogBuilder c;
  c.Table("ACC")
      .Column("ID", ValueType::kBigInt, 0, false)
      .Column("CITY", ValueType::kVarchar, 10)
      .Column("BAL", s.bal_is_bigint ? ValueType::kBigInt : ValueType::kInteger)
      .Index("PK_ACC", {0}, INDEX_KIND_HASH, true, true);
  if (s.city_index) c.Index("BY_CITY", {1}, s.unique_city ? INDEX_KIND_HASH : INDEX_KIND_ORDERED, s.unique_city);
  if (s.log_table) c.Table("LOG").Column("MSG", ValueType::kVarchar, 20);
  if (s.city_view) c.View("PER_CITY", "ACC", {1}, {{proto::AGGREGATE_KIND_COUNT_STAR, -1, "N"}});
  c.Statement("insert", c.InsertParams("ACC"), c.ColumnTypes("ACC"));
  c.Statement("all", c.SeqScan("ACC"), {});
  if (s.city_index) c.Statement("byCity", c.IndexLookup("ACC", "BY_CITY", {Param(0, ValueType::kVarchar)}), {ValueType::kVarchar});
  if (s.city_view) c.Statement("perCity", c.SeqScan("PER_CITY"), {});
  if (s.log_table) {
    c.Statement("log", c.InsertParams("LOG"), c.ColumnTypes("LOG"));
    c.Statement("logs", c.SeqScan("LOG"), {});
  }
  return c;
}

class UpdateCatalogTest : public testing::EngineFixture {
 protected:
  void SetUp() override {
    catalog_ = MakeCatalog(Schema{});
    Open();
    for (int i = 1; i <= 3; ++i) {
      ASSERT_TRUE(Run("insert", {Value::BigInt(i), Value::Varchar(i == 3 ? "oslo" : "rome"), Value::Integer(i * 10)}).ok());
    }
    ASSERT_TRUE(Run("log", {Value::Varchar("hello")}).ok());
  }

  Status Update(const Schema& s) { return engine_->UpdateCatalog(MakeCatalog(s).Serialize()); }

  static constexpr const char* kRows = "1|'rome'|10\n2|'rome'|20\n3|'oslo'|30\n";
};

TEST_F(UpdateCatalogTest, DataSurvivesAndANewIndexServesLookups) {
  ASSERT_TRUE(Update(Schema{.city_index = true}).ok());
  EXPECT_EQ(testing::SortedLines(Query("all")), kRows);
  EXPECT_EQ(testing::SortedLines(Query("byCity", {Value::Varchar("rome")})), "1|'rome'|10\n2|'rome'|20\n");
  ASSERT_TRUE(Run("insert", {Value::BigInt(4), Value::Varchar("rome"), Value::Integer(40)}).ok());
  EXPECT_EQ(testing::SortedLines(Query("byCity", {Value::Varchar("rome")})), "1|'rome'|10\n2|'rome'|20\n4|'rome'|40\n");
  EXPECT_EQ(Query("logs"), "'hello'\n");
}

TEST_F(UpdateCatalogTest, PrimaryKeyStillRejectsDuplicatesAfterTheUpdate) {
  ASSERT_TRUE(Update(Schema{.city_index = true}).ok());
  EXPECT_EQ(Run("insert", {Value::BigInt(1), Value::Varchar("x"), Value::Integer(0)}).code(),
            proto::ERROR_CODE_CONSTRAINT_VIOLATION);
}

TEST_F(UpdateCatalogTest, UniqueViolationOfANewIndexFailsAndLeavesTheOldState) {
  Status s = Update(Schema{.city_index = true, .unique_city = true});
  EXPECT_EQ(s.code(), proto::ERROR_CODE_CONSTRAINT_VIOLATION) << s.ToString();
  EXPECT_NE(s.message().find("ACC"), std::string::npos) << s.message();
  EXPECT_EQ(testing::SortedLines(Query("all")), kRows);
  EXPECT_EQ(engine_->FindStatement("byCity").status().code(), proto::ERROR_CODE_NOT_FOUND);
  ASSERT_TRUE(Run("insert", {Value::BigInt(4), Value::Varchar("rome"), Value::Integer(40)}).ok());
  EXPECT_EQ(RowCount("ACC"), 4);
}

TEST_F(UpdateCatalogTest, DroppedIndexIsGoneAndItsStatementsWithIt) {
  ASSERT_TRUE(Update(Schema{.city_index = true}).ok());
  ASSERT_TRUE(Update(Schema{}).ok());
  EXPECT_EQ(engine_->FindStatement("byCity").status().code(), proto::ERROR_CODE_NOT_FOUND);
  EXPECT_EQ(testing::SortedLines(Query("all")), kRows);
}

TEST_F(UpdateCatalogTest, NewViewOverANonEmptySourceIsPopulated) {
  ASSERT_TRUE(Update(Schema{.city_view = true}).ok());
  EXPECT_EQ(testing::SortedLines(Query("perCity")), "'oslo'|1\n'rome'|2\n");
  ASSERT_TRUE(Run("insert", {Value::BigInt(4), Value::Varchar("oslo"), Value::Integer(40)}).ok());
  EXPECT_EQ(testing::SortedLines(Query("perCity")), "'oslo'|2\n'rome'|2\n");
}

TEST_F(UpdateCatalogTest, ExistingViewKeepsItsRowsAcrossAnUpdate) {
  ASSERT_TRUE(Update(Schema{.city_view = true}).ok());
  ASSERT_TRUE(Update(Schema{.city_index = true, .city_view = true}).ok());
  EXPECT_EQ(testing::SortedLines(Query("perCity")), "'oslo'|1\n'rome'|2\n");
}

TEST_F(UpdateCatalogTest, ChangedColumnsOfANonEmptyTableIsBadCatalogAndChangesNothing) {
  Status s = Update(Schema{.city_index = true, .bal_is_bigint = true});
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_CATALOG) << s.ToString();
  EXPECT_NE(s.message().find("table ACC"), std::string::npos) << s.message();
  EXPECT_EQ(testing::SortedLines(Query("all")), kRows);
  EXPECT_EQ(engine_->FindStatement("byCity").status().code(), proto::ERROR_CODE_NOT_FOUND);
}

TEST_F(UpdateCatalogTest, ChangedColumnsOfAnEmptyTableRecreatesIt) {
  ASSERT_TRUE(Run("insert", {Value::BigInt(9), Value::Varchar("x"), Value::Integer(0)}).ok());
  CatalogBuilder c = MakeCatalog(Schema{});
  c.catalog().mutable_tables(1)->mutable_columns(0)->set_max_length(50);  // LOG.MSG
  // LOG holds a row: refused.
  EXPECT_EQ(engine_->UpdateCatalog(c.catalog()).code(), proto::ERROR_CODE_BAD_CATALOG);
  // Emptied (a fresh engine whose LOG is empty): accepted.
  catalog_ = MakeCatalog(Schema{});
  Open();
  ASSERT_TRUE(Run("insert", {Value::BigInt(1), Value::Varchar("x"), Value::Integer(0)}).ok());
  ASSERT_TRUE(engine_->UpdateCatalog(c.catalog()).ok());
  ASSERT_TRUE(Run("log", {Value::Varchar(std::string(30, 'm'))}).ok());
  EXPECT_EQ(RowCount("LOG"), 1);
  EXPECT_EQ(RowCount("ACC"), 1);
}

TEST_F(UpdateCatalogTest, DroppedTableIsGoneAndRecreatedEmpty) {
  ASSERT_TRUE(Update(Schema{.log_table = false}).ok());
  EXPECT_EQ(engine_->FindStatement("logs").status().code(), proto::ERROR_CODE_NOT_FOUND);
  for (const TableStats& t : engine_->GetTableStats()) EXPECT_NE(t.name, "LOG");
  ASSERT_TRUE(Update(Schema{}).ok());
  EXPECT_EQ(Query("logs"), "");
  EXPECT_EQ(testing::SortedLines(Query("all")), kRows);
}

TEST_F(UpdateCatalogTest, StatementIdsArePositionsInTheNewCatalog) {
  ASSERT_TRUE(Update(Schema{.city_index = true, .log_table = false}).ok());
  EXPECT_EQ(engine_->FindStatement("insert").value(), 0);
  EXPECT_EQ(engine_->FindStatement("byCity").value(), 2);
}

TEST_F(UpdateCatalogTest, OpenTransactionIsRefused) {
  ASSERT_TRUE(RunBatch({Call("insert", {Value::BigInt(7), Value::Varchar("x"), Value::Integer(0)})}, false).ok());
  Status s = Update(Schema{.city_index = true});
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_REQUEST);
  EXPECT_TRUE(engine_->in_transaction());
  engine_->Rollback();
  EXPECT_EQ(RowCount("ACC"), 3);
}

TEST_F(UpdateCatalogTest, MalformedCatalogIsBadCatalogAndChangesNothing) {
  EXPECT_EQ(engine_->UpdateCatalog(std::string_view("\xff\xff", 2)).code(), proto::ERROR_CODE_BAD_CATALOG);
  CatalogBuilder c = MakeCatalog(Schema{});
  c.Statement("broken", c.SeqScan("ACC"), {});
  c.catalog().mutable_statements()->rbegin()->mutable_plan()->mutable_seq_scan()->set_table("NOPE");
  EXPECT_EQ(engine_->UpdateCatalog(c.catalog()).code(), proto::ERROR_CODE_BAD_PLAN);
  EXPECT_EQ(testing::SortedLines(Query("all")), kRows);
}

TEST_F(UpdateCatalogTest, ManyRowsAreCopiedAcrossChunks) {
  std::vector<StatementCall> calls;
  for (int i = 100; i < 10100; ++i) {
    calls.push_back(Call("insert", {Value::BigInt(i), Value::Varchar(i % 2 ? "a" : "b"), Value::Integer(i)}));
  }
  ASSERT_TRUE(RunBatch(calls).ok());
  ASSERT_TRUE(Update(Schema{.city_index = true, .city_view = true}).ok());
  EXPECT_EQ(RowCount("ACC"), 10003);
  EXPECT_EQ(testing::SortedLines(Query("perCity")), "'a'|5000\n'b'|5000\n'oslo'|1\n'rome'|2\n");
}

}  // namespace
}  // namespace partita
