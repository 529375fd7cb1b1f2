// Aggregation through the public Engine API: every aggregate kind, GROUP BY
// (with a NULL group), HAVING, empty input, and PARTIAL + MERGE against the
// single-phase result.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "errors.pb.h"
#include "testing/engine_fixture.h"

namespace partita {
namespace {

using proto::AggregateKind;
using testing::Binary;
using testing::Col;
using testing::ConstInt;
using testing::Node;
using testing::SortedLines;

constexpr ValueType kInt = ValueType::kInteger;
constexpr ValueType kBig = ValueType::kBigInt;
constexpr ValueType kText = ValueType::kVarchar;
constexpr ValueType kFloat = ValueType::kFloat;

struct Agg {
  AggregateKind kind;
  int column;  // input column; -1 for COUNT(*) and MERGE
  ValueType type;
  std::string name;
};

// An AGGREGATE node over `child` grouping by `group_by` input columns.
proto::PlanNode Aggregate(proto::PlanNode child, std::vector<int> group_by, std::vector<Agg> aggs,
                          proto::AggregatePhase phase = proto::AGGREGATE_PHASE_COMPLETE) {
  std::vector<ValueType> in;
  for (const auto& c : child.output_schema()) in.push_back(FromProto(c.type()));
  testing::OutputColumns out;
  for (const int g : group_by) out.emplace_back(child.output_schema(g).name(), in[g]);
  for (const Agg& a : aggs) {
    if (a.kind == proto::AGGREGATE_KIND_AVG && phase == proto::AGGREGATE_PHASE_PARTIAL) {
      out.emplace_back(a.name + "_SUM", kBig);
      out.emplace_back(a.name + "_COUNT", kBig);
    } else {
      out.emplace_back(a.name, a.type);
    }
  }
  proto::PlanNode n = Node(proto::PLAN_NODE_KIND_AGGREGATE, {std::move(child)}, out);
  auto* node = n.mutable_aggregate();
  node->set_phase(phase);
  for (const int g : group_by) *node->add_group_by() = Col(g, in[g]);
  for (const Agg& a : aggs) {
    auto* agg = node->add_aggregates();
    agg->set_kind(a.kind);
    agg->set_value_type(ToProto(a.type));
    if (a.column >= 0) *agg->mutable_argument() = Col(a.column, in[a.column]);
  }
  return n;
}

// S(G VARCHAR(8), X INTEGER, N VARCHAR(8)), all nullable, loaded with
//   a|1|p  a|2|q  a|NULL|r  b|5|zz  NULL|7|aa  NULL|7|NULL
// P1, P2, P3 have S's columns and stand for three partitions' shares
// (P1 + P2 = S; P3 empty). B(V BIGINT) is for overflow.
class AggregateTest : public testing::EngineFixture {
 protected:
  void SetUp() override {
    auto& c = catalog_;
    for (const char* t : {"S", "P1", "P2", "P3"}) {
      c.Table(t).Column("G", kText, 8).Column("X", kInt).Column("N", kText, 8);
      c.Statement(std::string("insert") + t, c.InsertParams(t), c.ColumnTypes(t));
    }
    c.Table("B").Column("V", kBig);
    c.Statement("insertB", c.InsertParams("B"), c.ColumnTypes("B"));
  }

  void Add(const std::string& name, proto::PlanNode plan) { catalog_.Statement(name, std::move(plan), {}); }

  void OpenWithRows() {
    ASSERT_NO_FATAL_FAILURE(Open());
    const Value null_text = Value::Null(kText);
    const Value null_int = Value::Null(kInt);
    struct R {
      Value g, x, n;
      const char* partition;
    };
    const R rows[] = {{Value::Varchar("a"), Value::Integer(1), Value::Varchar("p"), "P1"},
                      {Value::Varchar("a"), Value::Integer(2), Value::Varchar("q"), "P2"},
                      {Value::Varchar("a"), null_int, Value::Varchar("r"), "P1"},
                      {Value::Varchar("b"), Value::Integer(5), Value::Varchar("zz"), "P2"},
                      {null_text, Value::Integer(7), Value::Varchar("aa"), "P1"},
                      {null_text, Value::Integer(7), null_text, "P2"}};
    for (const R& r : rows) {
      ASSERT_TRUE(Run("insertS", {r.g, r.x, r.n}).ok());
      ASSERT_TRUE(Run(std::string("insert") + r.partition, {r.g, r.x, r.n}).ok());
    }
  }

  // Every mergeable aggregate over (G, X, N).
  static std::vector<Agg> MergeableAggs() {
    return {{proto::AGGREGATE_KIND_COUNT_STAR, -1, kBig, "CNT"}, {proto::AGGREGATE_KIND_COUNT, 1, kBig, "CX"},
            {proto::AGGREGATE_KIND_SUM, 1, kBig, "SX"},         {proto::AGGREGATE_KIND_MIN, 1, kInt, "MINX"},
            {proto::AGGREGATE_KIND_MAX, 1, kInt, "MAXX"},       {proto::AGGREGATE_KIND_AVG, 1, kFloat, "AVGX"},
            {proto::AGGREGATE_KIND_MIN, 2, kText, "MINN"},      {proto::AGGREGATE_KIND_MAX, 2, kText, "MAXN"}};
  }

  // Runs `name` and returns its rows as VALUES rows of constants.
  std::vector<std::vector<proto::Expression>> RowsOf(const std::string& name) {
    std::vector<std::vector<proto::Expression>> rows;
    EXPECT_TRUE(Run(name).ok());
    ResultTableReader t = Table(0);
    for (int64_t r = 0; r < t.row_count(); ++r) {
      rows.emplace_back();
      for (int c = 0; c < t.column_count(); ++c) rows.back().push_back(testing::ConstValue(t.Get(r, c)));
    }
    return rows;
  }

  // Runs a MERGE of `partials` (output columns of `partial_plan`) in a new
  // engine and returns its rows as text.
  static std::string Merge(const proto::PlanNode& partial_plan, std::vector<std::vector<proto::Expression>> partials,
                           int group_by) {
    testing::OutputColumns cols;
    for (const auto& c : partial_plan.output_schema()) cols.emplace_back(c.name(), FromProto(c.type()));
    std::vector<int> groups;
    for (int g = 0; g < group_by; ++g) groups.push_back(g);
    std::vector<Agg> aggs = MergeableAggs();
    for (Agg& a : aggs) a.column = -1;
    testing::CatalogBuilder c;
    c.Statement("merge", Aggregate(testing::ValuesNode(std::move(partials), cols), groups, aggs, proto::AGGREGATE_PHASE_MERGE),
                {});
    Result<std::unique_ptr<Engine>> engine = Engine::Open(c.catalog(), EngineOptions{});
    if (!engine.ok()) return "ERROR: " + engine.status().ToString();
    ResultSet results;
    const StatementCall call{0, {}};
    Status s = engine.value()->ExecuteBatch({&call, 1}, BatchOptions{}, &results);
    if (!s.ok()) return "ERROR: " + s.ToString();
    return ResultTableReader::Parse(results.table(0)).value().ToString();
  }
};

TEST_F(AggregateTest, CountStarCountsRowsAndCountSkipsNulls) {
  Add("q", Aggregate(catalog_.SeqScan("S"), {},
                     {{proto::AGGREGATE_KIND_COUNT_STAR, -1, kBig, "A"}, {proto::AGGREGATE_KIND_COUNT, 1, kBig, "B"},
                      {proto::AGGREGATE_KIND_COUNT, 2, kBig, "C"}}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "6|5|5\n");
}

TEST_F(AggregateTest, SumOverflowIsOutOfRangeAndRollsBackTheTransaction) {
  Add("sum", Aggregate(catalog_.SeqScan("B"), {}, {{proto::AGGREGATE_KIND_SUM, 0, kBig, "S"}}));
  OpenWithRows();
  ASSERT_TRUE(RunBatch({Call("insertB", {Value::BigInt(INT64_MAX)})}, false).ok());
  Status s = RunBatch({Call("insertB", {Value::BigInt(1)}), Call("sum", {})});
  EXPECT_EQ(s.code(), proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE) << s.ToString();
  EXPECT_FALSE(engine_->in_transaction());
  EXPECT_EQ(RowCount("B"), 0);
  EXPECT_EQ(results_.table_count(), 0);
}

TEST_F(AggregateTest, SumOfIntegersIsBigintBeyondIntegerRange) {
  Add("sum", Aggregate(catalog_.SeqScan("B"), {}, {{proto::AGGREGATE_KIND_SUM, 0, kBig, "S"}}));
  OpenWithRows();
  ASSERT_TRUE(Run("insertB", {Value::BigInt(INT64_MAX - 1)}).ok());
  ASSERT_TRUE(Run("insertB", {Value::BigInt(1)}).ok());
  ASSERT_TRUE(Run("insertB", {Value::Null(kBig)}).ok());
  EXPECT_EQ(Query("sum"), std::to_string(INT64_MAX) + "\n");
}

TEST_F(AggregateTest, MinAndMaxOfStringsCompareBytes) {
  Add("q", Aggregate(catalog_.SeqScan("S"), {},
                     {{proto::AGGREGATE_KIND_MIN, 2, kText, "LO"}, {proto::AGGREGATE_KIND_MAX, 2, kText, "HI"}}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'aa'|'zz'\n");
}

TEST_F(AggregateTest, AvgOfIntegersIsAFloat) {
  Add("q", Aggregate(catalog_.SeqScan("S"), {0}, {{proto::AGGREGATE_KIND_AVG, 1, kFloat, "AVGX"}}));
  Add("all", Aggregate(catalog_.SeqScan("S"), {}, {{proto::AGGREGATE_KIND_AVG, 1, kFloat, "AVGX"}}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'a'|1.5\n'b'|5\nNULL|7\n");
  EXPECT_EQ(Query("all"), Value::Float(22.0 / 5).ToString() + "\n");
  EXPECT_EQ(Table(0).column_type(0), kFloat);
}

TEST_F(AggregateTest, AvgOfIntegersAsDecimalKeepsTheFraction) {
  Add("q", Aggregate(catalog_.SeqScan("S"), {0}, {{proto::AGGREGATE_KIND_AVG, 1, ValueType::kDecimal, "AVGX"}}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'a'|1.5\n'b'|5\nNULL|7\n");
}

TEST_F(AggregateTest, CountDistinctCountsDistinctNonNullValues) {
  Add("q", Aggregate(catalog_.SeqScan("S"), {0}, {{proto::AGGREGATE_KIND_COUNT_DISTINCT, 1, kBig, "D"}}));
  Add("all", Aggregate(catalog_.SeqScan("S"), {}, {{proto::AGGREGATE_KIND_COUNT_DISTINCT, 1, kBig, "D"}}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'a'|2\n'b'|1\nNULL|1\n");
  EXPECT_EQ(Query("all"), "4\n");
}

TEST_F(AggregateTest, SumAndAvgDistinctAddEachDistinctValueOnce) {
  Add("q", Aggregate(catalog_.SeqScan("S"), {0}, {{proto::AGGREGATE_KIND_SUM_DISTINCT, 1, kBig, "S"}}));
  Add("all", Aggregate(catalog_.SeqScan("S"), {},
                       {{proto::AGGREGATE_KIND_SUM_DISTINCT, 1, kBig, "S"}, {proto::AGGREGATE_KIND_AVG_DISTINCT, 1, kFloat, "A"}}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'a'|3\n'b'|5\nNULL|7\n");
  EXPECT_EQ(Query("all"), "15|3.75\n");
}

TEST_F(AggregateTest, GroupByPutsNullKeysInOneGroup) {
  Add("q", Aggregate(catalog_.SeqScan("S"), {0},
                     {{proto::AGGREGATE_KIND_COUNT_STAR, -1, kBig, "N"}, {proto::AGGREGATE_KIND_SUM, 1, kBig, "SX"}}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'a'|3|3\n'b'|1|5\nNULL|2|14\n");
}

TEST_F(AggregateTest, NoGroupByOverEmptyInputYieldsOneRow) {
  proto::PlanNode empty = catalog_.SeqScanWhere("S", Binary(proto::EXPRESSION_KIND_GREATER, Col(1, kInt), ConstInt(100, kInt)));
  Add("q", Aggregate(empty, {},
                     {{proto::AGGREGATE_KIND_COUNT_STAR, -1, kBig, "N"}, {proto::AGGREGATE_KIND_COUNT, 1, kBig, "CX"},
                      {proto::AGGREGATE_KIND_SUM, 1, kBig, "SX"}, {proto::AGGREGATE_KIND_MIN, 2, kText, "MINN"},
                      {proto::AGGREGATE_KIND_AVG, 1, kFloat, "AVGX"},
                      {proto::AGGREGATE_KIND_COUNT_DISTINCT, 1, kBig, "DX"}}));
  Add("grouped", Aggregate(empty, {0}, {{proto::AGGREGATE_KIND_COUNT_STAR, -1, kBig, "N"}}));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "0|0|NULL|NULL|NULL|0\n");
  EXPECT_EQ(Query("grouped"), "");
}

TEST_F(AggregateTest, HavingFiltersGroupsOnTheOutputRow) {
  proto::PlanNode agg = Aggregate(catalog_.SeqScan("S"), {0}, {{proto::AGGREGATE_KIND_COUNT_STAR, -1, kBig, "N"}});
  *agg.mutable_aggregate()->mutable_having() = Binary(proto::EXPRESSION_KIND_GREATER, Col(1, kBig), ConstInt(1, kBig));
  Add("q", std::move(agg));
  OpenWithRows();
  EXPECT_EQ(Query("q"), "'a'|3\nNULL|2\n");
}

TEST_F(AggregateTest, PartialThenMergeEqualsSinglePhaseWithGroups) {
  Add("complete", Aggregate(catalog_.SeqScan("S"), {0}, MergeableAggs()));
  const proto::PlanNode partial = Aggregate(catalog_.SeqScan("P1"), {0}, MergeableAggs(), proto::AGGREGATE_PHASE_PARTIAL);
  Add("partial1", partial);
  Add("partial2", Aggregate(catalog_.SeqScan("P2"), {0}, MergeableAggs(), proto::AGGREGATE_PHASE_PARTIAL));
  OpenWithRows();
  ASSERT_TRUE(Run("insertP2", {Value::Varchar("c"), Value::Null(kInt), Value::Null(kText)}).ok());
  ASSERT_TRUE(Run("insertS", {Value::Varchar("c"), Value::Null(kInt), Value::Null(kText)}).ok());
  std::vector<std::vector<proto::Expression>> rows = RowsOf("partial1");
  for (auto& r : RowsOf("partial2")) rows.push_back(std::move(r));
  const std::string expected = Query("complete");
  EXPECT_EQ(SortedLines(expected),
            "'a'|3|2|3|1|2|1.5|'p'|'r'\n'b'|1|1|5|5|5|5|'zz'|'zz'\n'c'|1|0|NULL|NULL|NULL|NULL|NULL|NULL\n"
            "NULL|2|2|14|7|7|7|'aa'|'aa'\n");
  EXPECT_EQ(SortedLines(Merge(partial, std::move(rows), 1)), SortedLines(expected));
}

TEST_F(AggregateTest, PartialThenMergeWithoutGroupsToleratesAnEmptyPartition) {
  Add("complete", Aggregate(catalog_.SeqScan("P1"), {}, MergeableAggs()));
  const proto::PlanNode partial = Aggregate(catalog_.SeqScan("P1"), {}, MergeableAggs(), proto::AGGREGATE_PHASE_PARTIAL);
  Add("partial1", partial);
  Add("partial3", Aggregate(catalog_.SeqScan("P3"), {}, MergeableAggs(), proto::AGGREGATE_PHASE_PARTIAL));
  OpenWithRows();
  std::vector<std::vector<proto::Expression>> rows = RowsOf("partial1");
  for (auto& r : RowsOf("partial3")) rows.push_back(std::move(r));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(Merge(partial, std::move(rows), 0), Query("complete"));
  EXPECT_EQ(Query("complete"), "3|2|8|1|7|4|'aa'|'r'\n");
}

TEST_F(AggregateTest, CountDistinctCannotBeSplitIntoPhases) {
  Add("q", Aggregate(catalog_.SeqScan("S"), {}, {{proto::AGGREGATE_KIND_COUNT_DISTINCT, 1, kBig, "D"}},
                     proto::AGGREGATE_PHASE_PARTIAL));
  Result<std::unique_ptr<Engine>> e = Engine::Open(catalog_.catalog(), EngineOptions{});
  EXPECT_EQ(e.status().code(), proto::ERROR_CODE_BAD_PLAN);
}

}  // namespace
}  // namespace partita
