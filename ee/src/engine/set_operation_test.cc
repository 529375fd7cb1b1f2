// SET_OPERATION plan nodes through the public Engine API: UNION ALL, UNION,
// INTERSECT and EXCEPT over literal rows.
#include <gtest/gtest.h>

#include "errors.pb.h"
#include "testing/engine_fixture.h"

namespace partita {
namespace {

using testing::ConstInt;
using testing::ConstNull;
using testing::Node;

constexpr ValueType kBig = ValueType::kBigInt;

// One BIGINT column; a NULL for each negative number.
proto::PlanNode Rows(std::vector<int> values) {
  std::vector<std::vector<proto::Expression>> rows;
  for (int v : values) rows.push_back({v < 0 ? ConstNull(kBig) : ConstInt(v)});
  return testing::ValuesNode(std::move(rows), {{"X", kBig}});
}

proto::PlanNode SetOp(proto::SetOperationKind kind, std::vector<proto::PlanNode> children) {
  proto::PlanNode n = Node(proto::PLAN_NODE_KIND_SET_OPERATION, std::move(children), {{"X", kBig}});
  n.mutable_set_operation()->set_kind(kind);
  return n;
}

class SetOperationTest : public testing::EngineFixture {};

TEST_F(SetOperationTest, UnionAllKeepsEveryRowChildAfterChild) {
  catalog_.Statement("q", SetOp(proto::SET_OPERATION_KIND_UNION_ALL, {Rows({1, 2}), Rows({}), Rows({2, -1})}), {});
  Open();
  EXPECT_EQ(Query("q"), "1\n2\n2\nNULL\n");
}

TEST_F(SetOperationTest, UnionKeepsDistinctRowsWithNullsEqual) {
  catalog_.Statement("q", SetOp(proto::SET_OPERATION_KIND_UNION, {Rows({1, 2, -1}), Rows({2, -1, 3})}), {});
  Open();
  EXPECT_EQ(Query("q"), "1\n2\nNULL\n3\n");
}

TEST_F(SetOperationTest, IntersectAndExceptCompareWithTheSecondChild) {
  catalog_.Statement("i", SetOp(proto::SET_OPERATION_KIND_INTERSECT, {Rows({1, 2, 2, -1}), Rows({2, -1})}), {});
  catalog_.Statement("e", SetOp(proto::SET_OPERATION_KIND_EXCEPT, {Rows({1, 1, 2, -1}), Rows({2})}), {});
  Open();
  EXPECT_EQ(Query("i"), "2\nNULL\n");
  EXPECT_EQ(Query("e"), "1\nNULL\n");
}

TEST_F(SetOperationTest, ExceptWithOneChildIsABadPlan) {
  catalog_.Statement("q", SetOp(proto::SET_OPERATION_KIND_EXCEPT, {Rows({1})}), {});
  Result<std::unique_ptr<Engine>> e = Engine::Open(catalog_.catalog(), EngineOptions{});
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), proto::ERROR_CODE_BAD_PLAN);
}

}  // namespace
}  // namespace partita
