// SUBQUERY and OUTER_COLUMN expressions through the public Engine API:
// correlated and uncorrelated scalar subqueries, EXISTS and IN.
#include <gtest/gtest.h>

#include "errors.pb.h"
#include "plan.pb.h"
#include "testing/engine_fixture.h"

namespace partita {
namespace {

using testing::Binary;
using testing::Col;
using testing::ConstInt;
using testing::Node;
using testing::ProjectExprs;

constexpr ValueType kInt = ValueType::kInteger;
constexpr ValueType kBig = ValueType::kBigInt;
constexpr ValueType kText = ValueType::kVarchar;
constexpr ValueType kBool = ValueType::kBoolean;

proto::Expression Outer(int index, ValueType type) {
  proto::Expression e;
  e.set_kind(proto::EXPRESSION_KIND_OUTER_COLUMN);
  e.set_value_type(ToProto(type));
  e.set_column_index(index);
  return e;
}

proto::Expression Subquery(proto::SubqueryKind kind, ValueType type, proto::PlanNode plan,
                           std::vector<proto::Expression> children) {
  proto::Expression e;
  e.set_kind(proto::EXPRESSION_KIND_SUBQUERY);
  e.set_value_type(ToProto(type));
  e.set_subquery_kind(kind);
  *e.mutable_subquery() = std::move(plan);
  for (auto& c : children) *e.add_children() = std::move(c);
  return e;
}

// T(ID BIGINT, V INTEGER): 1|10  2|20  3|NULL  4|20
class SubqueryTest : public testing::EngineFixture {
 protected:
  void SetUp() override {
    catalog_.Table("T").Column("ID", kBig, 0, false).Column("V", kInt);
    catalog_.Statement("insertT", catalog_.InsertParams("T"), catalog_.ColumnTypes("T"));
  }

  void OpenWithRows() {
    ASSERT_NO_FATAL_FAILURE(Open());
    const std::vector<std::pair<int, Value>> rows = {
        {1, Value::Integer(10)}, {2, Value::Integer(20)}, {3, Value::Null(kInt)}, {4, Value::Integer(20)}};
    for (const auto& [id, v] : rows) ASSERT_TRUE(Run("insertT", {Value::BigInt(id), v}).ok());
  }

  // COUNT(*) of the rows of T whose V is below OUTER_COLUMN 0.
  proto::PlanNode CountBelowOuter() {
    proto::PlanNode scan = catalog_.SeqScanWhere("T", Binary(proto::EXPRESSION_KIND_LESS, Col(1, kInt), Outer(0, kInt)));
    proto::PlanNode agg = Node(proto::PLAN_NODE_KIND_AGGREGATE, {std::move(scan)}, {{"N", kBig}});
    auto* a = agg.mutable_aggregate()->add_aggregates();
    a->set_kind(proto::AGGREGATE_KIND_COUNT_STAR);
    a->set_value_type(proto::VALUE_TYPE_BIGINT);
    return agg;
  }

  // T's V column where ID > `min_id`.
  proto::PlanNode ValuesAbove(int min_id) {
    return ProjectExprs(catalog_.SeqScanWhere("T", Binary(proto::EXPRESSION_KIND_GREATER, Col(0, kBig), ConstInt(min_id))),
                        {Col(1, kInt)}, {{"V", kInt}});
  }

  void AddProjection(std::vector<proto::Expression> columns, const testing::OutputColumns& schema) {
    catalog_.Statement("q", ProjectExprs(catalog_.SeqScan("T"), std::move(columns), schema), {});
  }
};

TEST_F(SubqueryTest, CorrelatedScalarSubqueryRunsPerRowWithOuterValues) {
  std::vector<proto::Expression> args;
  args.push_back(Col(1, kInt));
  AddProjection({Col(0, kBig), Subquery(proto::SUBQUERY_KIND_SCALAR, kBig, CountBelowOuter(), std::move(args))},
                {{"ID", kBig}, {"N", kBig}});
  OpenWithRows();
  EXPECT_EQ(Query("q"), "1|0\n2|1\n3|0\n4|1\n");
}

TEST_F(SubqueryTest, UncorrelatedScalarSubqueryOverNoRowsIsNull) {
  AddProjection({Col(0, kBig), Subquery(proto::SUBQUERY_KIND_SCALAR, kInt, ValuesAbove(10), {})},
                {{"ID", kBig}, {"S", kInt}});
  OpenWithRows();
  EXPECT_EQ(Query("q"), "1|NULL\n2|NULL\n3|NULL\n4|NULL\n");
}

TEST_F(SubqueryTest, ScalarSubqueryWithSeveralRowsIsAnError) {
  AddProjection({Subquery(proto::SUBQUERY_KIND_SCALAR, kInt, ValuesAbove(1), {})}, {{"S", kInt}});
  OpenWithRows();
  EXPECT_NE(Query("q").find("more than one row"), std::string::npos);
}

TEST_F(SubqueryTest, ExistsIsTrueIffThePlanYieldsARow) {
  // E1: EXISTS (SELECT * FROM T x WHERE x.V < T.V); E2: over no rows.
  std::vector<proto::Expression> args;
  args.push_back(Col(1, kInt));
  proto::PlanNode below = catalog_.SeqScanWhere("T", Binary(proto::EXPRESSION_KIND_LESS, Col(1, kInt), Outer(0, kInt)));
  AddProjection({Col(0, kBig), Subquery(proto::SUBQUERY_KIND_EXISTS, kBool, std::move(below), std::move(args)),
                 Subquery(proto::SUBQUERY_KIND_EXISTS, kBool, ValuesAbove(10), {})},
                {{"ID", kBig}, {"E1", kBool}, {"E2", kBool}});
  OpenWithRows();
  EXPECT_EQ(Query("q"), "1|FALSE|FALSE\n2|TRUE|FALSE\n3|FALSE|FALSE\n4|TRUE|FALSE\n");
}

TEST_F(SubqueryTest, InSubqueryFollowsInListNullRules) {
  // V IN (SELECT V FROM T WHERE ID > 2) = V IN (NULL, 20); and over no rows.
  std::vector<proto::Expression> in_some, in_none;
  in_some.push_back(Col(1, kInt));
  in_none.push_back(Col(1, kInt));
  AddProjection({Col(0, kBig), Subquery(proto::SUBQUERY_KIND_IN, kBool, ValuesAbove(2), std::move(in_some)),
                 Subquery(proto::SUBQUERY_KIND_IN, kBool, ValuesAbove(10), std::move(in_none))},
                {{"ID", kBig}, {"I1", kBool}, {"I2", kBool}});
  OpenWithRows();
  EXPECT_EQ(Query("q"), "1|NULL|FALSE\n2|TRUE|FALSE\n3|NULL|FALSE\n4|TRUE|FALSE\n");
}

TEST_F(SubqueryTest, OuterColumnOutsideASubqueryIsABadPlan) {
  AddProjection({Outer(0, kInt)}, {{"X", kInt}});
  Result<std::unique_ptr<Engine>> e = Engine::Open(catalog_.catalog(), EngineOptions{});
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), proto::ERROR_CODE_BAD_PLAN);
}

}  // namespace
}  // namespace partita
