#include "errors.pb.h"
#include "partita/engine.h"

#include <gtest/gtest.h>

#include "testing/engine_fixture.h"

namespace partita {
namespace {

using proto::INDEX_KIND_HASH;
using proto::INDEX_KIND_ORDERED;
using testing::Col;
using testing::Param;

// A small Voter-shaped schema: VOTES(phone BIGINT, state VARCHAR(2),
// contestant INTEGER) with a per-phone count view and a per-contestant
// MIN/MAX phone view; ACCOUNTS(id BIGINT PK, name VARCHAR(200), balance
// INTEGER NOT NULL) for DML tests.
class EngineTest : public testing::EngineFixture {
 protected:
  void SetUp() override {
    auto& c = catalog_;
    c.Table("VOTES", 0)
        .Column("PHONE", ValueType::kBigInt, 0, false)
        .Column("STATE", ValueType::kVarchar, 2, false)
        .Column("CONTESTANT", ValueType::kInteger, 0, false);
    c.View("V_BY_PHONE", "VOTES", {0}, {{proto::AGGREGATE_KIND_COUNT_STAR, -1, "NUM_VOTES"}});
    c.View("V_BY_CONTESTANT", "VOTES", {2},
           {{proto::AGGREGATE_KIND_COUNT_STAR, -1, "NUM_VOTES"},
            {proto::AGGREGATE_KIND_MIN, 0, "MIN_PHONE"},
            {proto::AGGREGATE_KIND_MAX, 0, "MAX_PHONE"},
            {proto::AGGREGATE_KIND_SUM, 0, "SUM_PHONE"}});
    c.Table("ACCOUNTS")
        .Column("ID", ValueType::kBigInt, 0, false)
        .Column("NAME", ValueType::kVarchar, 200, true)
        .Column("BALANCE", ValueType::kInteger, 0, false)
        .Index("PK_ACCOUNTS", {0}, INDEX_KIND_HASH, true, true)
        .Index("BY_BALANCE", {2}, INDEX_KIND_ORDERED, false);
    c.Statement("insertVote", c.InsertParams("VOTES"), c.ColumnTypes("VOTES"));
    c.Statement("deleteVotesOf", c.Delete("VOTES", c.SeqScanWhere("VOTES", testing::Binary(proto::EXPRESSION_KIND_EQUAL, Col(0, ValueType::kBigInt), Param(0, ValueType::kBigInt)))), {ValueType::kBigInt});
    c.Statement("votesOf", testing::Project(c.IndexLookup("V_BY_PHONE", "V_BY_PHONE_PK", {Param(0, ValueType::kBigInt)}), {1}),
                {ValueType::kBigInt});
    c.Statement("contestant", c.IndexLookup("V_BY_CONTESTANT", "V_BY_CONTESTANT_PK", {Param(0, ValueType::kInteger)}),
                {ValueType::kInteger});
    c.Statement("insertAccount", c.InsertParams("ACCOUNTS"), c.ColumnTypes("ACCOUNTS"));
    c.Statement("upsertAccount", c.InsertParams("ACCOUNTS", true), c.ColumnTypes("ACCOUNTS"));
    c.Statement("account", c.IndexLookup("ACCOUNTS", "PK_ACCOUNTS", {Param(0, ValueType::kBigInt)}), {ValueType::kBigInt});
    c.Statement("setBalance",
                c.Update("ACCOUNTS", c.IndexLookup("ACCOUNTS", "PK_ACCOUNTS", {Param(0, ValueType::kBigInt)}),
                         {{2, Param(1, ValueType::kInteger)}}),
                {ValueType::kBigInt, ValueType::kInteger});
    c.Statement("setName",
                c.Update("ACCOUNTS", c.IndexLookup("ACCOUNTS", "PK_ACCOUNTS", {Param(0, ValueType::kBigInt)}),
                         {{1, Param(1, ValueType::kVarchar)}}),
                {ValueType::kBigInt, ValueType::kVarchar});
    c.Statement("setId",
                c.Update("ACCOUNTS", c.IndexLookup("ACCOUNTS", "PK_ACCOUNTS", {Param(0, ValueType::kBigInt)}),
                         {{0, Param(1, ValueType::kBigInt)}}),
                {ValueType::kBigInt, ValueType::kBigInt});
    c.Statement("deleteAccount", c.Delete("ACCOUNTS", c.IndexLookup("ACCOUNTS", "PK_ACCOUNTS", {Param(0, ValueType::kBigInt)})),
                {ValueType::kBigInt});
    c.Statement("balancesBetween",
                c.IndexRange("ACCOUNTS", "BY_BALANCE", {Param(0, ValueType::kInteger)}, true,
                             {Param(1, ValueType::kInteger)}, false),
                {ValueType::kInteger, ValueType::kInteger});
    c.Statement("balancesBelowDesc", c.IndexRange("ACCOUNTS", "BY_BALANCE", {}, true, {Param(0, ValueType::kInteger)}, true, true),
                {ValueType::kInteger});
    c.Statement("allAccounts", c.SeqScan("ACCOUNTS"), {});
    Open();
  }

  Status Vote(int64_t phone, const char* state, int32_t contestant) {
    return Run("insertVote", {Value::BigInt(phone), Value::Varchar(state), Value::Integer(contestant)});
  }
  Status Account(int64_t id, const char* name, int32_t balance) {
    return Run("insertAccount",
               {Value::BigInt(id), name ? Value::Varchar(name) : Value::Null(ValueType::kVarchar), Value::Integer(balance)});
  }
};

TEST_F(EngineTest, InsertedRowIsFoundThroughPrimaryKey) {
  ASSERT_TRUE(Account(1, "ann", 10).ok());
  EXPECT_EQ(Query("account", {Value::BigInt(1)}), "1|'ann'|10\n");
  EXPECT_EQ(Query("account", {Value::BigInt(2)}), "");
}

TEST_F(EngineTest, DuplicatePrimaryKeyFailsAndRollsBackTheWholeBatch) {
  std::vector<StatementCall> calls = {
      Call("insertAccount", {Value::BigInt(1), Value::Varchar("a"), Value::Integer(1)}),
      Call("insertVote", {Value::BigInt(5), Value::Varchar("MA"), Value::Integer(1)}),
      Call("insertAccount", {Value::BigInt(1), Value::Varchar("b"), Value::Integer(2)})};
  Status s = RunBatch(calls);
  EXPECT_EQ(s.code(), proto::ERROR_CODE_CONSTRAINT_VIOLATION);
  EXPECT_NE(s.message().find("PK_ACCOUNTS"), std::string::npos) << s.message();
  EXPECT_EQ(RowCount("ACCOUNTS"), 0);
  EXPECT_EQ(RowCount("VOTES"), 0);
  EXPECT_EQ(RowCount("V_BY_PHONE"), 0);
  EXPECT_EQ(RowCount("V_BY_CONTESTANT"), 0);
  EXPECT_FALSE(engine_->in_transaction());
}

TEST_F(EngineTest, FailureInALaterBatchRollsBackEarlierBatches) {
  ASSERT_TRUE(RunBatch({Call("insertVote", {Value::BigInt(7), Value::Varchar("NY"), Value::Integer(2)})}, false).ok());
  EXPECT_TRUE(engine_->in_transaction());
  Status s = RunBatch({Call("insertVote", {Value::BigInt(7), Value::Varchar("TOO LONG"), Value::Integer(2)})});
  EXPECT_EQ(s.code(), proto::ERROR_CODE_VALUE_TOO_LONG);
  EXPECT_EQ(RowCount("VOTES"), 0);
  EXPECT_EQ(Query("votesOf", {Value::BigInt(7)}), "");
}

TEST_F(EngineTest, ViewsCountVotesAndForgetRolledBackOnes) {
  ASSERT_TRUE(Vote(100, "MA", 1).ok());
  ASSERT_TRUE(Vote(100, "MA", 1).ok());
  ASSERT_TRUE(Vote(200, "NY", 1).ok());
  EXPECT_EQ(Query("votesOf", {Value::BigInt(100)}), "2\n");
  ASSERT_TRUE(RunBatch({Call("insertVote", {Value::BigInt(100), Value::Varchar("MA"), Value::Integer(1)})}, false).ok());
  EXPECT_EQ(QueryInTransaction("votesOf", {Value::BigInt(100)}), "3\n");
  engine_->Rollback();
  EXPECT_EQ(Query("votesOf", {Value::BigInt(100)}), "2\n");
  EXPECT_EQ(Query("contestant", {Value::Integer(1)}), "1|3|100|200|400\n");
}

TEST_F(EngineTest, DeletingTheMinimumFindsTheNextOneThroughTheIndex) {
  for (int64_t phone : {50, 10, 30, 10, 40}) ASSERT_TRUE(Vote(phone, "MA", 3).ok());
  EXPECT_EQ(Query("contestant", {Value::Integer(3)}), "3|5|10|50|140\n");
  ASSERT_TRUE(Run("deleteVotesOf", {Value::BigInt(10)}).ok());
  EXPECT_EQ(Query("contestant", {Value::Integer(3)}), "3|3|30|50|120\n");
  ASSERT_TRUE(Run("deleteVotesOf", {Value::BigInt(50)}).ok());
  EXPECT_EQ(Query("contestant", {Value::Integer(3)}), "3|2|30|40|70\n");
  ASSERT_TRUE(Run("deleteVotesOf", {Value::BigInt(30)}).ok());
  ASSERT_TRUE(Run("deleteVotesOf", {Value::BigInt(40)}).ok());
  EXPECT_EQ(Query("contestant", {Value::Integer(3)}), "");
  EXPECT_EQ(RowCount("V_BY_CONTESTANT"), 0);
}

TEST_F(EngineTest, RolledBackDeleteRestoresRowsIndexesAndViews) {
  ASSERT_TRUE(Vote(1, "MA", 9).ok());
  ASSERT_TRUE(Vote(2, "MA", 9).ok());
  ASSERT_TRUE(RunBatch({Call("deleteVotesOf", {Value::BigInt(1)})}, false).ok());
  EXPECT_EQ(QueryInTransaction("contestant", {Value::Integer(9)}), "9|1|2|2|2\n");
  engine_->Rollback();
  EXPECT_EQ(Query("contestant", {Value::Integer(9)}), "9|2|1|2|3\n");
  EXPECT_EQ(Query("votesOf", {Value::BigInt(1)}), "1\n");
}

TEST_F(EngineTest, UpdateMovesIndexEntriesAndRollbackMovesThemBack) {
  ASSERT_TRUE(Account(1, "ann", 10).ok());
  ASSERT_TRUE(RunBatch({Call("setId", {Value::BigInt(1), Value::BigInt(99)})}, false).ok());
  EXPECT_EQ(QueryInTransaction("account", {Value::BigInt(99)}), "99|'ann'|10\n");
  engine_->Rollback();
  EXPECT_EQ(Query("account", {Value::BigInt(99)}), "");
  EXPECT_EQ(Query("account", {Value::BigInt(1)}), "1|'ann'|10\n");
}

TEST_F(EngineTest, UpdateIntoAnExistingKeyIsAConstraintViolation) {
  ASSERT_TRUE(Account(1, "ann", 10).ok());
  ASSERT_TRUE(Account(2, "bob", 20).ok());
  EXPECT_EQ(Run("setId", {Value::BigInt(1), Value::BigInt(2)}).code(), proto::ERROR_CODE_CONSTRAINT_VIOLATION);
  EXPECT_EQ(Query("account", {Value::BigInt(1)}), "1|'ann'|10\n");
  EXPECT_EQ(Query("account", {Value::BigInt(2)}), "2|'bob'|20\n");
}

TEST_F(EngineTest, OutOfLineStringsSurviveUpdateDeleteAndRollback) {
  const std::string long_name(150, 'x');
  ASSERT_TRUE(Account(1, long_name.c_str(), 10).ok());
  ASSERT_TRUE(RunBatch({Call("setName", {Value::BigInt(1), Value::Varchar(std::string(180, 'y'))})}, false).ok());
  engine_->Rollback();
  EXPECT_EQ(Query("account", {Value::BigInt(1)}), "1|'" + long_name + "'|10\n");
  ASSERT_TRUE(Run("setName", {Value::BigInt(1), Value::Varchar("short")}).ok());
  ASSERT_TRUE(Run("setName", {Value::BigInt(1), Value::Null(ValueType::kVarchar)}).ok());
  EXPECT_EQ(Query("account", {Value::BigInt(1)}), "1|NULL|10\n");
  ASSERT_TRUE(Run("deleteAccount", {Value::BigInt(1)}).ok());
  EXPECT_EQ(RowCount("ACCOUNTS"), 0);
}

TEST_F(EngineTest, UpsertInsertsThenReplaces) {
  ASSERT_TRUE(Run("upsertAccount", {Value::BigInt(4), Value::Varchar("a"), Value::Integer(1)}).ok());
  ASSERT_TRUE(Run("upsertAccount", {Value::BigInt(4), Value::Varchar("b"), Value::Integer(2)}).ok());
  EXPECT_EQ(Query("allAccounts"), "4|'b'|2\n");
}

TEST_F(EngineTest, RangeScansHonourBoundsDirectionAndSkipNoRows) {
  for (int i = 1; i <= 5; ++i) ASSERT_TRUE(Account(i, "n", i * 10).ok());
  EXPECT_EQ(Query("balancesBetween", {Value::Integer(20), Value::Integer(40)}), "2|'n'|20\n3|'n'|30\n");
  EXPECT_EQ(Query("balancesBelowDesc", {Value::Integer(30)}), "3|'n'|30\n2|'n'|20\n1|'n'|10\n");
  EXPECT_EQ(Query("balancesBetween", {Value::Integer(40), Value::Integer(20)}), "");
}

TEST_F(EngineTest, BadParametersAreRejectedWithTheirPosition) {
  Status s = Run("account", {});
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_PARAMETER);
  EXPECT_NE(s.message().find("expects 1 parameters, got 0"), std::string::npos) << s.message();
  s = Run("setBalance", {Value::BigInt(1), Value::BigInt(int64_t{1} << 40)});
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_PARAMETER);
  EXPECT_NE(s.message().find("parameter 2"), std::string::npos) << s.message();
  s = Run("account", {Value::Varchar("1")});
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_PARAMETER);
}

TEST_F(EngineTest, NullIntoNotNullColumnIsRejected) {
  Status s = Run("insertAccount", {Value::BigInt(1), Value::Varchar("a"), Value::Null(ValueType::kInteger)});
  EXPECT_EQ(s.code(), proto::ERROR_CODE_NOT_NULL_VIOLATION);
  EXPECT_NE(s.message().find("ACCOUNTS.BALANCE"), std::string::npos) << s.message();
  EXPECT_EQ(RowCount("ACCOUNTS"), 0);
}

TEST_F(EngineTest, UnknownStatementIdIsNotFound) {
  const StatementCall call{12345, {}};
  EXPECT_EQ(engine_->ExecuteBatch({&call, 1}, BatchOptions{}, &results_).code(), proto::ERROR_CODE_NOT_FOUND);
  EXPECT_EQ(engine_->FindStatement("nope").status().code(), proto::ERROR_CODE_NOT_FOUND);
}

TEST_F(EngineTest, StatsCountRowsAndBytes) {
  ASSERT_TRUE(Account(1, std::string(150, 'z').c_str(), 1).ok());
  for (const TableStats& s : engine_->GetTableStats()) {
    if (s.name != "ACCOUNTS") continue;
    EXPECT_EQ(s.row_count, 1);
    EXPECT_GT(s.bytes_used, 150);
    EXPECT_GE(s.bytes_allocated, s.bytes_used);
    EXPECT_GT(s.index_bytes, 0);
  }
}

TEST(EngineOpenTest, MalformedCatalogBytesAreRejected) {
  Result<std::unique_ptr<Engine>> e = Engine::Open(std::string_view("\xff\xff\xff garbage", 12), EngineOptions{});
  EXPECT_EQ(e.status().code(), proto::ERROR_CODE_BAD_CATALOG);
}

TEST(EngineOpenTest, CatalogErrorsNameTheObject) {
  testing::CatalogBuilder c;
  c.Table("T").Column("A", ValueType::kVarchar, 0);
  Result<std::unique_ptr<Engine>> e = Engine::Open(c.catalog(), EngineOptions{});
  EXPECT_EQ(e.status().code(), proto::ERROR_CODE_BAD_CATALOG);
  EXPECT_NE(e.status().message().find("table T column 0 (A)"), std::string::npos) << e.status().message();

  testing::CatalogBuilder d;
  d.Table("T").Column("A", ValueType::kBigInt);
  d.Statement("s", d.IndexLookup("T", "MISSING", {Param(0, ValueType::kBigInt)}), {ValueType::kBigInt});
  e = Engine::Open(d.catalog(), EngineOptions{});
  EXPECT_EQ(e.status().code(), proto::ERROR_CODE_BAD_PLAN);
  EXPECT_NE(e.status().message().find("no index 'MISSING'"), std::string::npos) << e.status().message();
}

}  // namespace
}  // namespace partita
