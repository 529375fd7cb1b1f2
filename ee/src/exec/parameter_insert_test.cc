// ParameterInsert: which plans take the dedicated path, and that it writes
// what the generic INSERT executor writes (rows, result, write hash, errors).
#include "exec/parameter_insert.h"

#include <gtest/gtest.h>

#include "catalog/loaded_catalog.h"
#include "testing/engine_fixture.h"

namespace partita {
namespace {

using proto::INDEX_KIND_HASH;
using testing::ConstInt;
using testing::ConstNull;
using testing::ConstValue;
using testing::Param;

constexpr ValueType kInt = ValueType::kInteger;
constexpr ValueType kBig = ValueType::kBigInt;
constexpr ValueType kText = ValueType::kVarchar;

// `insert` with a FILTER(TRUE) between INSERT and VALUES: the generic path.
proto::PlanNode Generic(proto::PlanNode insert) {
  proto::PlanNode values = insert.children(0);
  proto::PlanNode filter;
  filter.set_kind(proto::PLAN_NODE_KIND_FILTER);
  *filter.mutable_output_schema() = values.output_schema();
  *filter.mutable_filter_predicate() = ConstValue(Value::Boolean(true));
  *filter.add_children() = std::move(values);
  *insert.mutable_children(0) = std::move(filter);
  return insert;
}

// The VALUES row of an insert plan over T, replaced by `columns`.
proto::PlanNode WithRow(proto::PlanNode insert, std::vector<proto::Expression> columns) {
  auto* row = insert.mutable_children(0)->mutable_values()->mutable_rows(0);
  row->clear_columns();
  for (auto& c : columns) *row->add_columns() = std::move(c);
  return insert;
}

// T(ID BIGINT PK, CODE INTEGER, NAME VARCHAR(4) NOT NULL).
class ParameterInsertTest : public testing::EngineFixture {
 protected:
  void SetUp() override {
    catalog_.Table("T")
        .Column("ID", kBig, 0, false)
        .Column("CODE", kInt)
        .Column("NAME", kText, 4, false)
        .Index("PK_T", {0}, INDEX_KIND_HASH, true, true);
    const std::vector<ValueType> params = catalog_.ColumnTypes("T");
    AddBoth("insert", catalog_.InsertParams("T"), params);
    AddBoth("upsert", catalog_.InsertParams("T", true), params);
    AddBoth("withConstants", WithRow(catalog_.InsertParams("T"), {Param(1, kBig), ConstNull(kInt), Param(0, kText)}),
            {kText, kBig});
    catalog_.Statement("all", catalog_.SeqScan("T"), {});
  }

  void AddBoth(const std::string& name, const proto::PlanNode& plan, std::vector<ValueType> params) {
    catalog_.Statement(name, plan, params);
    catalog_.Statement(name + "_generic", Generic(plan), params);
  }

  bool TakesDedicatedPath(const std::string& name) {
    Arena arena;
    Result<std::unique_ptr<LoadedCatalog>> loaded = LoadedCatalog::Load(catalog_.catalog(), &arena);
    EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
    if (!loaded.ok()) return false;
    return loaded.value()->statements()[loaded.value()->statement_ids().at(name)].parameter_insert != nullptr;
  }

  // Runs each call (suffix "" or "_generic" added to its name) as a
  // transaction on a fresh engine; returns each one's result table and
  // write hash (or error), then the table's rows.
  std::string Play(const std::vector<std::pair<std::string, std::vector<Value>>>& calls, const std::string& suffix) {
    Open();
    std::string out;
    for (const auto& [name, params] : calls) {
      const Status s = Run(name + suffix, params);
      // Error messages start with the statement's name, which differs.
      out += s.ok() ? Table(0).ToString() + "hash " + std::to_string(results_.write_hash()) + "\n"
                    : std::to_string(static_cast<int>(s.code())) + s.message().substr(s.message().find(':')) + "\n";
    }
    return out + Query("all");
  }
};

TEST_F(ParameterInsertTest, TakesOneRowOfParametersAndConstants) {
  EXPECT_TRUE(TakesDedicatedPath("insert"));
  EXPECT_TRUE(TakesDedicatedPath("upsert"));
  EXPECT_TRUE(TakesDedicatedPath("withConstants"));
  EXPECT_FALSE(TakesDedicatedPath("insert_generic"));
}

TEST_F(ParameterInsertTest, LeavesSeveralRowsAndComputedValuesToTheExecutors) {
  proto::PlanNode two_rows = catalog_.InsertParams("T");
  *two_rows.mutable_children(0)->mutable_values()->add_rows() = two_rows.children(0).values().rows(0);
  catalog_.Statement("twoRows", two_rows, catalog_.ColumnTypes("T"));
  proto::Expression sum = testing::Op(proto::EXPRESSION_KIND_ADD, {Param(0, kBig), ConstInt(1)}, kBig);
  catalog_.Statement("computed", WithRow(catalog_.InsertParams("T"), {sum, Param(1, kInt), Param(2, kText)}),
                     catalog_.ColumnTypes("T"));
  EXPECT_FALSE(TakesDedicatedPath("twoRows"));
  EXPECT_FALSE(TakesDedicatedPath("computed"));
}

TEST_F(ParameterInsertTest, WritesWhatTheGenericInsertWrites) {
  const std::vector<std::pair<std::string, std::vector<Value>>> calls = {
      {"insert", {Value::BigInt(1), Value::Integer(10), Value::Varchar("ann")}},
      {"insert", {Value::Integer(2), Value::Null(kInt), Value::Varchar("bob")}},  // converted parameter
      {"insert", {Value::BigInt(1), Value::Integer(11), Value::Varchar("dup")}},  // duplicate key
      {"insert", {Value::BigInt(3), Value::Integer(12), Value::Null(kText)}},     // NOT NULL
      {"insert", {Value::BigInt(4), Value::Integer(13), Value::Varchar("toolong")}},
      {"upsert", {Value::BigInt(1), Value::Integer(99), Value::Varchar("ann2")}},
      {"upsert", {Value::BigInt(5), Value::Integer(50), Value::Varchar("eve")}},
      {"withConstants", {Value::Varchar("cy"), Value::BigInt(6)}},
  };
  const std::string fast = Play(calls, "");
  EXPECT_EQ(fast, Play(calls, "_generic"));
  EXPECT_NE(fast.find("1|99|'ann2'\n"), std::string::npos) << fast;
  EXPECT_NE(fast.find("6|NULL|'cy'\n"), std::string::npos) << fast;
}

}  // namespace
}  // namespace partita
