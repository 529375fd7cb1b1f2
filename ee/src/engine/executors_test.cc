// Executors through the public Engine API: scans, projection, joins, sort,
// limit, distinct and DML, each over a small EMP/DEPT schema.
#include <gtest/gtest.h>

#include "errors.pb.h"
#include "testing/engine_fixture.h"

namespace partita {
namespace {

using proto::INDEX_KIND_HASH;
using proto::INDEX_KIND_ORDERED;
using testing::Binary;
using testing::Col;
using testing::ConstInt;
using testing::Node;
using testing::Param;
using testing::Project;
using testing::ProjectExprs;

constexpr ValueType kInt = ValueType::kInteger;
constexpr ValueType kBig = ValueType::kBigInt;
constexpr ValueType kText = ValueType::kVarchar;

// EMP(ID BIGINT PK, DEPT INTEGER, NAME VARCHAR(16), SALARY INTEGER) with
// ordered indexes on SALARY and (DEPT, NAME); DEPT(ID INTEGER PK, DNAME).
// Tests add their statements, then call OpenWithRows():
//   EMP  1|10|ann|100  2|10|bob|200  3|20|cy|300  4|NULL|dee|150  5|30|eve|NULL
//   DEPT 10|eng  20|ops  40|hr
class ExecutorsTest : public testing::EngineFixture {
 protected:
  void SetUp() override {
    auto& c = catalog_;
    c.Table("EMP")
        .Column("ID", kBig, 0, false)
        .Column("DEPT", kInt)
        .Column("NAME", kText, 16)
        .Column("SALARY", kInt)
        .Index("PK_EMP", {0}, INDEX_KIND_HASH, true, true)
        .Index("BY_SALARY", {3}, INDEX_KIND_ORDERED, false)
        .Index("BY_DEPT_NAME", {1, 2}, INDEX_KIND_ORDERED, false);
    c.Table("DEPT").Column("ID", kInt, 0, false).Column("DNAME", kText, 16).Index("PK_DEPT", {0}, INDEX_KIND_HASH, true, true);
    c.Statement("insertEmp", c.InsertParams("EMP"), c.ColumnTypes("EMP"));
    c.Statement("insertDept", c.InsertParams("DEPT"), c.ColumnTypes("DEPT"));
    c.Statement("allEmp", c.SeqScan("EMP"), {});
  }

  void Add(const std::string& name, proto::PlanNode plan, std::vector<ValueType> params = {}) {
    catalog_.Statement(name, std::move(plan), std::move(params));
  }

  void OpenWithRows() {
    ASSERT_NO_FATAL_FAILURE(Open());
    auto null_int = Value::Null(kInt);
    ASSERT_TRUE(Emp(1, Value::Integer(10), "ann", Value::Integer(100)).ok());
    ASSERT_TRUE(Emp(2, Value::Integer(10), "bob", Value::Integer(200)).ok());
    ASSERT_TRUE(Emp(3, Value::Integer(20), "cy", Value::Integer(300)).ok());
    ASSERT_TRUE(Emp(4, null_int, "dee", Value::Integer(150)).ok());
    ASSERT_TRUE(Emp(5, Value::Integer(30), "eve", null_int).ok());
    for (auto [id, name] : std::vector<std::pair<int, const char*>>{{10, "eng"}, {20, "ops"}, {40, "hr"}}) {
      ASSERT_TRUE(Run("insertDept", {Value::Integer(id), Value::Varchar(name)}).ok());
    }
  }

  Status Emp(int64_t id, Value dept, const char* name, Value salary) {
    return Run("insertEmp", {Value::BigInt(id), dept, Value::Varchar(name), salary});
  }

  // EMP ++ DEPT nested-loop join on EMP.DEPT = DEPT.ID (or a cross product).
  proto::PlanNode EmpDeptJoin(proto::JoinType type, bool with_predicate) {
    proto::PlanNode join = Node(proto::PLAN_NODE_KIND_NEST_LOOP_JOIN, {catalog_.SeqScan("EMP"), catalog_.SeqScan("DEPT")},
                                {{"ID", kBig}, {"DEPT", kInt}, {"NAME", kText}, {"SALARY", kInt}, {"DID", kInt}, {"DNAME", kText}});
    join.mutable_nest_loop_join()->set_join_type(type);
    if (with_predicate) {
      *join.mutable_nest_loop_join()->mutable_predicate() = Binary(proto::EXPRESSION_KIND_EQUAL, Col(1, kInt), Col(4, kInt));
    }
    return join;
  }

  // outer ++ (inner table's columns) through `index` keyed by `key`.
  proto::PlanNode IndexJoin(proto::PlanNode outer, const std::string& table, const std::string& index,
                            std::vector<proto::Expression> key, proto::JoinType type) {
    testing::OutputColumns cols;
    for (const auto& c : outer.output_schema()) cols.emplace_back(c.name(), FromProto(c.type()));
    for (const auto& c : catalog_.table(table).columns()) cols.emplace_back(c.name(), FromProto(c.type()));
    proto::PlanNode join = Node(proto::PLAN_NODE_KIND_INDEX_NEST_LOOP_JOIN, {std::move(outer)}, cols);
    auto* j = join.mutable_index_nest_loop_join();
    j->set_join_type(type);
    j->mutable_inner()->set_table(table);
    j->mutable_inner()->set_index(index);
    for (auto& k : key) *j->mutable_inner()->add_lookup_key() = std::move(k);
    return join;
  }

  static proto::PlanNode Sort(proto::PlanNode child, std::vector<std::tuple<int, bool, bool>> keys) {
    testing::OutputColumns cols;
    for (const auto& c : child.output_schema()) cols.emplace_back(c.name(), FromProto(c.type()));
    std::vector<ValueType> types;
    for (const auto& c : child.output_schema()) types.push_back(FromProto(c.type()));
    proto::PlanNode n = Node(proto::PLAN_NODE_KIND_SORT, {std::move(child)}, cols);
    for (auto [column, descending, nulls_last] : keys) {
      auto* k = n.mutable_sort()->add_keys();
      *k->mutable_expression() = Col(column, types[column]);
      k->set_descending(descending);
      k->set_nulls_last(nulls_last);
    }
    return n;
  }

  static proto::PlanNode Limit(proto::PlanNode child) {
    testing::OutputColumns cols;
    for (const auto& c : child.output_schema()) cols.emplace_back(c.name(), FromProto(c.type()));
    proto::PlanNode n = Node(proto::PLAN_NODE_KIND_LIMIT, {std::move(child)}, cols);
    *n.mutable_limit()->mutable_limit() = Param(0, kBig);
    *n.mutable_limit()->mutable_offset() = Param(1, kBig);
    return n;
  }
};

TEST_F(ExecutorsTest, ValuesRowOfNoColumnsIsStillARow) {
  // SELECT 7 (no FROM): a projection over one empty VALUES row.
  proto::PlanNode one_empty_row = testing::ValuesNode({{}}, {});
  Add("q", ProjectExprs(std::move(one_empty_row), {ConstInt(7)}, {{"C1", kBig}}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "7\n");
}

TEST_F(ExecutorsTest, SeqScanReturnsRowsMatchingItsPredicate) {
  Add("q", catalog_.SeqScanWhere("EMP", Binary(proto::EXPRESSION_KIND_GREATER, Col(3, kInt), ConstInt(150, kInt))));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "2|10|'bob'|200\n3|20|'cy'|300\n");
}

TEST_F(ExecutorsTest, ProjectionComputesArithmeticAndPropagatesNull) {
  auto doubled = Binary(proto::EXPRESSION_KIND_MULTIPLY, Col(3, kInt), ConstInt(2, kInt), kBig);
  auto plus_id = Binary(proto::EXPRESSION_KIND_ADD, std::move(doubled), Col(0, kBig), kBig);
  Add("q", ProjectExprs(catalog_.SeqScan("EMP"), {Col(2, kText), std::move(plus_id)}, {{"NAME", kText}, {"X", kBig}}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'ann'|201\n'bob'|402\n'cy'|603\n'dee'|304\n'eve'|NULL\n");
  EXPECT_EQ(Table(0).column_name(1), "X");
}

TEST_F(ExecutorsTest, NestLoopInnerJoinEmitsOnlyMatchingPairs) {
  Add("q", Project(EmpDeptJoin(proto::JOIN_TYPE_INNER, true), {2, 5}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'ann'|'eng'\n'bob'|'eng'\n'cy'|'ops'\n");
}

TEST_F(ExecutorsTest, NestLoopLeftJoinPadsUnmatchedOuterRowsWithNulls) {
  Add("q", Project(EmpDeptJoin(proto::JOIN_TYPE_LEFT, true), {2, 4, 5}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'ann'|10|'eng'\n'bob'|10|'eng'\n'cy'|20|'ops'\n'dee'|NULL|NULL\n'eve'|NULL|NULL\n");
}

TEST_F(ExecutorsTest, NestLoopJoinWithoutPredicateIsACrossProduct) {
  Add("q", Project(EmpDeptJoin(proto::JOIN_TYPE_INNER, false), {0, 4}));
  OpenWithRows();
  ASSERT_TRUE(Run("q").ok());
  EXPECT_EQ(Table(0).row_count(), 15);
  EXPECT_EQ(Table(0).Get(14, 0).int_value(), 5);
  EXPECT_EQ(Table(0).Get(14, 1).int_value(), 40);
}

TEST_F(ExecutorsTest, NestLoopLeftJoinOverEmptyInnerKeepsEveryOuterRow) {
  proto::PlanNode join = EmpDeptJoin(proto::JOIN_TYPE_LEFT, true);
  *join.mutable_children(1) = catalog_.SeqScanWhere("DEPT", Binary(proto::EXPRESSION_KIND_LESS, Col(0, kInt), ConstInt(0, kInt)));
  Add("q", Project(std::move(join), {0, 5}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "1|NULL\n2|NULL\n3|NULL\n4|NULL\n5|NULL\n");
}

// EMP ++ DEPT hash join on EMP.DEPT = DEPT.ID, DEPT built into the table.
proto::PlanNode EmpDeptHashJoin(testing::CatalogBuilder& catalog, proto::JoinType type) {
  proto::PlanNode join = Node(proto::PLAN_NODE_KIND_HASH_JOIN, {catalog.SeqScan("EMP"), catalog.SeqScan("DEPT")},
                              {{"ID", kBig}, {"DEPT", kInt}, {"NAME", kText}, {"SALARY", kInt}, {"DID", kInt}, {"DNAME", kText}});
  auto* j = join.mutable_hash_join();
  j->set_join_type(type);
  *j->add_outer_keys() = Col(1, kInt);
  *j->add_inner_keys() = Col(0, kInt);
  return join;
}

TEST_F(ExecutorsTest, HashInnerJoinEmitsPairsWithEqualKeysAndNeverMatchesNull) {
  Add("q", Project(EmpDeptHashJoin(catalog_, proto::JOIN_TYPE_INNER), {2, 5}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'ann'|'eng'\n'bob'|'eng'\n'cy'|'ops'\n");
}

TEST_F(ExecutorsTest, HashLeftJoinPadsMissesAndNullKeysWithNulls) {
  Add("q", Project(EmpDeptHashJoin(catalog_, proto::JOIN_TYPE_LEFT), {2, 4, 5}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'ann'|10|'eng'\n'bob'|10|'eng'\n'cy'|20|'ops'\n'dee'|NULL|NULL\n'eve'|NULL|NULL\n");
}

TEST_F(ExecutorsTest, HashJoinAppliesItsResidualPredicateBeforeDecidingAMatch) {
  proto::PlanNode join = EmpDeptHashJoin(catalog_, proto::JOIN_TYPE_LEFT);
  *join.mutable_hash_join()->mutable_predicate() =
      Binary(proto::EXPRESSION_KIND_GREATER, Col(3, kInt), ConstInt(150, kInt));
  Add("q", Project(std::move(join), {2, 5}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'ann'|NULL\n'bob'|'eng'\n'cy'|'ops'\n'dee'|NULL\n'eve'|NULL\n");
}

TEST_F(ExecutorsTest, HashJoinWithoutKeysIsABadPlan) {
  proto::PlanNode join = EmpDeptHashJoin(catalog_, proto::JOIN_TYPE_INNER);
  join.mutable_hash_join()->clear_inner_keys();
  Add("q", std::move(join));
  Result<std::unique_ptr<Engine>> e = Engine::Open(catalog_.catalog(), EngineOptions{});
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), proto::ERROR_CODE_BAD_PLAN);
  EXPECT_NE(e.status().message().find("as many outer_keys as inner_keys"), std::string::npos) << e.status().message();
}

TEST_F(ExecutorsTest, IndexJoinLooksUpTheInnerByAnOuterColumn) {
  Add("q", Project(IndexJoin(catalog_.SeqScan("EMP"), "DEPT", "PK_DEPT", {Col(1, kInt)}, proto::JOIN_TYPE_INNER), {2, 5}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'ann'|'eng'\n'bob'|'eng'\n'cy'|'ops'\n");
}

TEST_F(ExecutorsTest, IndexLeftJoinPadsMissesAndNullKeysWithNulls) {
  Add("q", Project(IndexJoin(catalog_.SeqScan("EMP"), "DEPT", "PK_DEPT", {Col(1, kInt)}, proto::JOIN_TYPE_LEFT), {2, 4, 5}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'ann'|10|'eng'\n'bob'|10|'eng'\n'cy'|20|'ops'\n'dee'|NULL|NULL\n'eve'|NULL|NULL\n");
}

TEST_F(ExecutorsTest, IndexJoinOnAnOrderedPrefixReturnsInnerRowsInKeyOrder) {
  // DEPT ++ EMP through BY_DEPT_NAME with the prefix DEPT.ID.
  Add("q", Project(IndexJoin(catalog_.SeqScan("DEPT"), "EMP", "BY_DEPT_NAME", {Col(0, kInt)}, proto::JOIN_TYPE_LEFT), {1, 4}));
  OpenWithRows();
  ASSERT_TRUE(Run("insertEmp", {Value::BigInt(6), Value::Integer(10), Value::Varchar("al"), Value::Integer(1)}).ok());
  EXPECT_EQ(Query("q"), "'eng'|'al'\n'eng'|'ann'\n'eng'|'bob'\n'ops'|'cy'\n'hr'|NULL\n");
}

TEST_F(ExecutorsTest, IndexJoinAppliesItsExtraPredicateBeforeDecidingAMatch) {
  proto::PlanNode join = IndexJoin(catalog_.SeqScan("DEPT"), "EMP", "BY_DEPT_NAME", {Col(0, kInt)}, proto::JOIN_TYPE_LEFT);
  *join.mutable_index_nest_loop_join()->mutable_predicate() =
      Binary(proto::EXPRESSION_KIND_GREATER, Col(5, kInt), ConstInt(150, kInt));  // EMP.SALARY
  Add("q", Project(std::move(join), {1, 4}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'eng'|'bob'\n'ops'|'cy'\n'hr'|NULL\n");
}

TEST_F(ExecutorsTest, SortOrdersByMultipleKeysWithNullsFirstByDefault) {
  Add("q", Project(Sort(catalog_.SeqScan("EMP"), {{1, false, false}, {3, true, true}}), {2}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'dee'\n'bob'\n'ann'\n'cy'\n'eve'\n");
}

TEST_F(ExecutorsTest, SortDescendingPlacesNullsWhereNullsLastSays) {
  Add("nullsFirst", Project(Sort(catalog_.SeqScan("EMP"), {{3, true, false}}), {3}));
  Add("nullsLast", Project(Sort(catalog_.SeqScan("EMP"), {{3, true, true}}), {3}));
  Add("ascNullsLast", Project(Sort(catalog_.SeqScan("EMP"), {{1, false, true}, {0, true, false}}), {0}));
  OpenWithRows();
  EXPECT_EQ(Query("nullsFirst"), "NULL\n300\n200\n150\n100\n");
  EXPECT_EQ(Query("nullsLast"), "300\n200\n150\n100\nNULL\n");
  EXPECT_EQ(Query("ascNullsLast"), "2\n1\n3\n5\n4\n");
}

TEST_F(ExecutorsTest, LimitAndOffsetComeFromParameters) {
  Add("q", Project(Limit(Sort(catalog_.SeqScan("EMP"), {{0, false, false}})), {0}), {kBig, kBig});
  OpenWithRows();
  EXPECT_EQ(Query("q", {Value::BigInt(2), Value::BigInt(1)}), "2\n3\n");
  EXPECT_EQ(Query("q", {Value::BigInt(0), Value::BigInt(0)}), "");
  EXPECT_EQ(Query("q", {Value::BigInt(10), Value::BigInt(4)}), "5\n");
  EXPECT_EQ(Query("q", {Value::BigInt(3), Value::BigInt(9)}), "");
  EXPECT_EQ(Query("q", {Value::Null(kBig), Value::Null(kBig)}), "1\n2\n3\n4\n5\n");
}

TEST_F(ExecutorsTest, NegativeLimitOrOffsetIsABadParameter) {
  Add("q", Limit(catalog_.SeqScan("EMP")), {kBig, kBig});
  OpenWithRows();
  EXPECT_EQ(Run("q", {Value::BigInt(-1), Value::BigInt(0)}).code(), proto::ERROR_CODE_BAD_PARAMETER);
  EXPECT_EQ(Run("q", {Value::BigInt(1), Value::BigInt(-5)}).code(), proto::ERROR_CODE_BAD_PARAMETER);
}

TEST_F(ExecutorsTest, DistinctKeepsFirstSeenRowsAndOneNull) {
  proto::PlanNode distinct = Node(proto::PLAN_NODE_KIND_DISTINCT, {Project(catalog_.SeqScan("EMP"), {1})}, {{"DEPT", kInt}});
  distinct.mutable_distinct();
  Add("q", std::move(distinct));
  OpenWithRows();
  ASSERT_TRUE(Run("insertEmp", {Value::BigInt(6), Value::Null(kInt), Value::Varchar("x"), Value::Integer(1)}).ok());
  EXPECT_EQ(Query("q"), "10\n20\nNULL\n30\n");
}

TEST_F(ExecutorsTest, IndexLookupWithNullKeyMatchesNothing) {
  Add("q", catalog_.IndexLookup("EMP", "BY_SALARY", {Param(0, kInt)}), {kInt});
  OpenWithRows();
  EXPECT_EQ(Query("q", {Value::Null(kInt)}), "");
  EXPECT_EQ(Query("q", {Value::Integer(150)}), "4|NULL|'dee'|150\n");
}

TEST_F(ExecutorsTest, RangeBoundedOnlyAboveSkipsNullKeysInBothDirections) {
  Add("up", Project(catalog_.IndexRange("EMP", "BY_SALARY", {}, true, {Param(0, kInt)}, true), {0}), {kInt});
  Add("down", Project(catalog_.IndexRange("EMP", "BY_SALARY", {}, true, {Param(0, kInt)}, true, true), {0}), {kInt});
  OpenWithRows();
  EXPECT_EQ(Query("up", {Value::Integer(200)}), "1\n4\n2\n");
  EXPECT_EQ(Query("down", {Value::Integer(200)}), "2\n4\n1\n");
}

TEST_F(ExecutorsTest, InsertSelectFromTheSameTableInsertsOnlyPreexistingRows) {
  auto shifted = Binary(proto::EXPRESSION_KIND_ADD, Col(0, kBig), ConstInt(100, kBig), kBig);
  proto::PlanNode select = ProjectExprs(catalog_.SeqScan("EMP"), {std::move(shifted), Col(1, kInt), Col(2, kText), Col(3, kInt)},
                                        {{"ID", kBig}, {"DEPT", kInt}, {"NAME", kText}, {"SALARY", kInt}});
  proto::PlanNode insert = Node(proto::PLAN_NODE_KIND_INSERT, {std::move(select)}, {});
  insert.mutable_insert()->set_table("EMP");
  Add("copy", testing::DmlCountSchema(std::move(insert)));
  OpenWithRows();
  ASSERT_TRUE(Run("copy").ok());
  EXPECT_EQ(Table(0).ScalarInt(), 5);
  EXPECT_EQ(RowCount("EMP"), 10);
  // Again: 1..5 -> 101..105 now collide with the first copy; all rolled back.
  EXPECT_EQ(Run("copy").code(), proto::ERROR_CODE_CONSTRAINT_VIOLATION);
  EXPECT_EQ(RowCount("EMP"), 10);
}

TEST_F(ExecutorsTest, UpdateOfTheKeyItsRangeScanReadsTouchesEachRowOnce) {
  auto raise = Binary(proto::EXPRESSION_KIND_ADD, Col(3, kInt), ConstInt(1000, kInt), kInt);
  Add("raise", catalog_.Update("EMP", catalog_.IndexRange("EMP", "BY_SALARY", {ConstInt(0, kInt)}, true, {}, true),
                                {{3, std::move(raise)}}));
  Add("bySalary", Project(catalog_.IndexRange("EMP", "BY_SALARY", {}, true, {}, true), {0, 3}));
  OpenWithRows();
  ASSERT_TRUE(Run("raise").ok());
  EXPECT_EQ(Table(0).ScalarInt(), 4);
  EXPECT_EQ(Query("bySalary"), "5|NULL\n1|1100\n4|1150\n2|1200\n3|1300\n");
}

TEST_F(ExecutorsTest, BackwardUpdateOfTheScannedKeyTouchesEachRowOnce) {
  auto cut = Binary(proto::EXPRESSION_KIND_SUBTRACT, Col(3, kInt), ConstInt(1000, kInt), kInt);
  Add("cut", catalog_.Update("EMP", catalog_.IndexRange("EMP", "BY_SALARY", {}, true, {ConstInt(1000, kInt)}, true, true),
                              {{3, std::move(cut)}}));
  OpenWithRows();
  ASSERT_TRUE(Run("cut").ok());
  EXPECT_EQ(Table(0).ScalarInt(), 4);
  EXPECT_EQ(Query("allEmp"), "1|10|'ann'|-900\n2|10|'bob'|-800\n3|20|'cy'|-700\n4|NULL|'dee'|-850\n5|30|'eve'|NULL\n");
}

TEST_F(ExecutorsTest, DeleteThroughARangeScanRemovesExactlyTheRange) {
  Add("del", catalog_.Delete("EMP", catalog_.IndexRange("EMP", "BY_SALARY", {Param(0, kInt)}, true, {Param(1, kInt)}, false)),
      {kInt, kInt});
  OpenWithRows();
  ASSERT_TRUE(Run("del", {Value::Integer(150), Value::Integer(300)}).ok());
  EXPECT_EQ(Table(0).ScalarInt(), 2);
  EXPECT_EQ(Query("allEmp"), "1|10|'ann'|100\n3|20|'cy'|300\n5|30|'eve'|NULL\n");
}

TEST_F(ExecutorsTest, FailingUpdateRollsBackRowsItAlreadyChanged) {
  auto times = Binary(proto::EXPRESSION_KIND_MULTIPLY, Col(3, kInt), ConstInt(10'000'000, kInt), kBig);
  Add("scale", catalog_.Update("EMP", catalog_.SeqScan("EMP"), {{3, std::move(times)}}));
  OpenWithRows();
  // 100 * 10^7 fits INTEGER; 300 * 10^7 does not.
  EXPECT_EQ(Run("scale").code(), proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_FALSE(engine_->in_transaction());
  EXPECT_EQ(Query("allEmp"), "1|10|'ann'|100\n2|10|'bob'|200\n3|20|'cy'|300\n4|NULL|'dee'|150\n5|30|'eve'|NULL\n");
}

}  // namespace
}  // namespace partita
