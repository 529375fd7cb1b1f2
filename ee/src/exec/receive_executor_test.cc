// RECEIVE plan nodes over dependency tables passed with the batch, through
// Engine::ExecuteBatch and ExecuteSerializedBatch.
#include "errors.pb.h"
#include "exec/receive_executor.h"

#include <gtest/gtest.h>

#include "plan.pb.h"
#include "testing/engine_fixture.h"
#include "testing/request_builder.h"

namespace partita {
namespace {

using testing::OutputColumns;

const OutputColumns kColumns = {{"ID", ValueType::kBigInt}, {"NAME", ValueType::kVarchar}};

proto::PlanNode Receive(int32_t id, const OutputColumns& columns = kColumns) {
  proto::PlanNode node = testing::Node(proto::PLAN_NODE_KIND_RECEIVE, {}, columns);
  node.mutable_receive()->set_dependency_id(id);
  return node;
}

// T(ID BIGINT, NAME VARCHAR(10)); "all" scans it, "receive7" is RECEIVE 7,
// "sum7" sums the IDs received as 7.
class ReceiveExecutorTest : public testing::EngineFixture {
 protected:
  void SetUp() override {
    catalog_.Table("T").Column("ID", ValueType::kBigInt).Column("NAME", ValueType::kVarchar, 10);
    catalog_.Statement("insert", catalog_.InsertParams("T"), catalog_.ColumnTypes("T"));
    catalog_.Statement("all", catalog_.SeqScan("T"), {});
    catalog_.Statement("receive7", Receive(7), {});
    Open();
  }

  // A result table holding `rows` (inserted, scanned, then rolled back).
  std::vector<uint8_t> TableOf(const std::vector<std::pair<int64_t, const char*>>& rows) {
    std::vector<StatementCall> calls;
    for (const auto& [id, name] : rows) {
      calls.push_back(Call("insert", {Value::BigInt(id), name ? Value::Varchar(name) : Value::Null(ValueType::kVarchar)}));
    }
    calls.push_back(Call("all", {}));
    EXPECT_TRUE(RunBatch(calls, false).ok());
    engine_->Rollback();
    std::span<const uint8_t> t = results_.table(static_cast<int>(calls.size()) - 1);
    return {t.begin(), t.end()};
  }

  Status RunWith(const std::string& name, const std::vector<DependencyTable>& deps) {
    const StatementCall call = Call(name, {});
    BatchOptions options;
    options.dependencies = deps;
    return engine_->ExecuteBatch({&call, 1}, options, &results_);
  }
};

TEST_F(ReceiveExecutorTest, ProducesEveryRowOfEveryTableWithItsIdInOrder) {
  const auto a = TableOf({{1, "a"}, {2, nullptr}});
  const auto b = TableOf({{3, "b"}});
  const auto c = TableOf({{4, "c"}});
  ASSERT_TRUE(RunWith("receive7", {{7, a}, {8, b}, {7, c}}).ok());
  EXPECT_EQ(Table(0).ToString(), "1|'a'\n2|NULL\n4|'c'\n");
  EXPECT_EQ(RowCount("T"), 0);
}

TEST_F(ReceiveExecutorTest, EmptyInputTablesProduceNoRows) {
  ASSERT_TRUE(RunWith("receive7", {{7, TableOf({})}}).ok());
  EXPECT_EQ(Table(0).row_count(), 0);
}

TEST_F(ReceiveExecutorTest, MissingDependencyIsABadRequest) {
  Status s = RunWith("receive7", {{8, TableOf({{1, "a"}})}});
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_REQUEST);
  EXPECT_NE(s.message().find("no table with dependency id 7"), std::string::npos) << s.message();
}

TEST_F(ReceiveExecutorTest, TableWithOtherColumnTypesIsABadRequestNamingTheColumn) {
  catalog_.Statement("receiveInts", Receive(7, {{"ID", ValueType::kBigInt}, {"N", ValueType::kInteger}}), {});
  Open();
  Status s = RunWith("receiveInts", {{7, TableOf({{1, "a"}})}});
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_REQUEST);
  EXPECT_NE(s.message().find("column 1 (NAME) is VARCHAR, the plan expects INTEGER"), std::string::npos)
      << s.message();
}

TEST_F(ReceiveExecutorTest, TableWithOtherColumnCountIsABadRequest) {
  catalog_.Statement("receiveOne", Receive(7, {{"ID", ValueType::kBigInt}}), {});
  Open();
  Status s = RunWith("receiveOne", {{7, TableOf({{1, "a"}})}});
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_REQUEST);
  EXPECT_NE(s.message().find("has 2 columns, the plan expects 1"), std::string::npos) << s.message();
}

TEST_F(ReceiveExecutorTest, MalformedInputTableIsABadRequestAndRollsBack) {
  auto t = TableOf({{1, "a"}});
  // table_size(4) column_count(2) BIGINT(1) 2 "ID" — then NAME's type byte.
  t[11] = 0x7f;
  ASSERT_TRUE(Run("insert", {Value::BigInt(9), Value::Varchar("z")}).ok());
  const StatementCall calls[] = {Call("insert", {Value::BigInt(10), Value::Varchar("y")}), Call("receive7", {})};
  BatchOptions options;
  const std::vector<DependencyTable> deps = {{7, t}};
  options.dependencies = deps;
  Status s = engine_->ExecuteBatch(calls, options, &results_);
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_REQUEST) << s.ToString();
  EXPECT_EQ(RowCount("T"), 1);
}

TEST_F(ReceiveExecutorTest, AggregatesOverReceivedRowsInASerializedAdHocCall) {
  // SELECT COUNT(*), SUM(ID) FROM RECEIVE(7)
  proto::PlanNode agg = testing::Node(proto::PLAN_NODE_KIND_AGGREGATE, {Receive(7)},
                                      {{"C", ValueType::kBigInt}, {"S", ValueType::kBigInt}});
  auto* count = agg.mutable_aggregate()->add_aggregates();
  count->set_kind(proto::AGGREGATE_KIND_COUNT_STAR);
  count->set_value_type(proto::VALUE_TYPE_BIGINT);
  auto* sum = agg.mutable_aggregate()->add_aggregates();
  sum->set_kind(proto::AGGREGATE_KIND_SUM);
  sum->set_value_type(proto::VALUE_TYPE_BIGINT);
  *sum->mutable_argument() = testing::Col(0, ValueType::kBigInt);
  proto::Statement statement;
  *statement.mutable_plan() = agg;
  const auto a = TableOf({{1, "a"}, {2, "b"}});
  const auto b = TableOf({{40, "c"}});
  testing::RequestBuilder r(true, 1);
  r.AdHoc(statement, 0);
  r.Dependencies(2).Dependency(7, a).Dependency(7, b);
  ASSERT_TRUE(engine_->ExecuteSerializedBatch(r.bytes(), &results_).ok());
  EXPECT_EQ(Table(0).ToString(), "3|43\n");
}

TEST_F(ReceiveExecutorTest, ReceiveNodeWithChildrenOrWithoutColumnsIsABadPlan) {
  proto::PlanNode with_child = Receive(7);
  *with_child.add_children() = catalog_.SeqScan("T");
  catalog_.Statement("bad", with_child, {});
  Result<std::unique_ptr<Engine>> e = Engine::Open(catalog_.catalog(), EngineOptions{});
  EXPECT_EQ(e.status().code(), proto::ERROR_CODE_BAD_PLAN);
  catalog_.catalog().mutable_statements()->RemoveLast();
  catalog_.Statement("bad", Receive(7, {}), {});
  e = Engine::Open(catalog_.catalog(), EngineOptions{});
  EXPECT_EQ(e.status().code(), proto::ERROR_CODE_BAD_PLAN);
}

}  // namespace
}  // namespace partita
