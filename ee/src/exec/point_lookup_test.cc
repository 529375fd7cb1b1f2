// PointLookup: which plans take the dedicated path, and that it gives the
// bytes the generic executor tree gives for the same plan.
#include "exec/point_lookup.h"

#include <gtest/gtest.h>

#include "catalog/loaded_catalog.h"
#include "testing/engine_fixture.h"

namespace partita {
namespace {

using proto::INDEX_KIND_HASH;
using proto::INDEX_KIND_ORDERED;
using testing::ConstInt;
using testing::ConstValue;
using testing::Param;
using testing::Project;

constexpr ValueType kInt = ValueType::kInteger;
constexpr ValueType kBig = ValueType::kBigInt;
constexpr ValueType kText = ValueType::kVarchar;

// The same rows through a FILTER(TRUE) over `plan`: a shape no dedicated
// path takes, so the generic executors run it.
proto::PlanNode Generic(const proto::PlanNode& plan) {
  proto::PlanNode filter;
  filter.set_kind(proto::PLAN_NODE_KIND_FILTER);
  *filter.mutable_output_schema() = plan.output_schema();
  *filter.mutable_filter_predicate() = ConstValue(Value::Boolean(true));
  *filter.add_children() = plan;
  return filter;
}

// T(ID BIGINT PK hash, CODE INTEGER unique hash, NAME VARCHAR(16), N INTEGER
// ordered): rows 1|10|'ann'|100, 2|20|NULL|NULL.
class PointLookupTest : public testing::EngineFixture {
 protected:
  void SetUp() override {
    catalog_.Table("T")
        .Column("ID", kBig, 0, false)
        .Column("CODE", kInt)
        .Column("NAME", kText, 16)
        .Column("N", kInt)
        .Index("PK_T", {0}, INDEX_KIND_HASH, true, true)
        .Index("T_CODE", {1}, INDEX_KIND_HASH, true)
        .Index("T_N", {3}, INDEX_KIND_ORDERED, false);
    catalog_.Statement("insert", catalog_.InsertParams("T"), catalog_.ColumnTypes("T"));
  }

  // Adds `name` (the plan) and `name`_generic (the same through FILTER(TRUE)).
  void AddBoth(const std::string& name, const proto::PlanNode& plan, std::vector<ValueType> params) {
    catalog_.Statement(name, plan, params);
    catalog_.Statement(name + "_generic", Generic(plan), params);
  }

  void OpenWithRows() {
    ASSERT_NO_FATAL_FAILURE(Open());
    ASSERT_TRUE(Run("insert", {Value::BigInt(1), Value::Integer(10), Value::Varchar("ann"), Value::Integer(100)}).ok());
    ASSERT_TRUE(Run("insert", {Value::BigInt(2), Value::Integer(20), Value::Null(kText), Value::Null(kInt)}).ok());
  }

  // The result bytes of `name` with `params`, or the error.
  std::string Bytes(const std::string& name, const std::vector<Value>& params) {
    const Status s = Run(name, params);
    if (!s.ok()) return "ERROR: " + s.ToString();
    const std::span<const uint8_t> t = results_.table(0);
    return std::string(reinterpret_cast<const char*>(t.data()), t.size());
  }

  // Whether statement `name` of the catalog compiles to a PointLookup.
  bool TakesDedicatedPath(const std::string& name) {
    Arena arena;
    Result<std::unique_ptr<LoadedCatalog>> loaded = LoadedCatalog::Load(catalog_.catalog(), &arena);
    EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
    if (!loaded.ok()) return false;
    const int id = loaded.value()->statement_ids().at(name);
    return loaded.value()->statements()[id].point_lookup != nullptr;
  }
};

TEST_F(PointLookupTest, TakesProjectedAndWholeRowLookupsOnUniqueHashKeys) {
  AddBoth("byId", Project(catalog_.IndexLookup("T", "PK_T", {Param(0, kBig)}), {2, 0}), {kBig});
  AddBoth("row", catalog_.IndexLookup("T", "T_CODE", {Param(0, kInt)}), {kInt});
  EXPECT_TRUE(TakesDedicatedPath("byId"));
  EXPECT_TRUE(TakesDedicatedPath("row"));
  EXPECT_FALSE(TakesDedicatedPath("byId_generic"));
}

TEST_F(PointLookupTest, LeavesOtherShapesToTheExecutors) {
  catalog_.Statement("constantKey", catalog_.IndexLookup("T", "PK_T", {ConstInt(1)}), {});
  catalog_.Statement("ordered", catalog_.IndexLookup("T", "T_N", {Param(0, kInt)}), {kInt});
  proto::PlanNode with_predicate = catalog_.IndexLookup("T", "PK_T", {Param(0, kBig)});
  *with_predicate.mutable_index_scan()->mutable_predicate() = ConstValue(Value::Boolean(true));
  catalog_.Statement("predicate", with_predicate, {kBig});
  EXPECT_FALSE(TakesDedicatedPath("constantKey"));
  EXPECT_FALSE(TakesDedicatedPath("ordered"));
  EXPECT_FALSE(TakesDedicatedPath("predicate"));
}

TEST_F(PointLookupTest, GivesTheGenericPlansBytes) {
  AddBoth("byId", Project(catalog_.IndexLookup("T", "PK_T", {Param(0, kBig)}), {2, 3, 0}), {kBig});
  AddBoth("row", catalog_.IndexLookup("T", "T_CODE", {Param(0, kInt)}), {kInt});
  ASSERT_NO_FATAL_FAILURE(OpenWithRows());
  for (const Value& id : {Value::BigInt(1), Value::BigInt(2), Value::BigInt(3), Value::Null(kBig), Value::Integer(1)}) {
    const std::string fast = Bytes("byId", {id});
    EXPECT_EQ(fast, Bytes("byId_generic", {id})) << id.ToString();
    EXPECT_EQ(fast.rfind("ERROR", 0), std::string::npos) << fast;
  }
  for (const Value& code : {Value::Integer(10), Value::Integer(20), Value::Integer(30), Value::Null(kInt)}) {
    EXPECT_EQ(Bytes("row", {code}), Bytes("row_generic", {code})) << code.ToString();
  }
  EXPECT_EQ(Query("byId", {Value::BigInt(1)}), "'ann'|100|1\n");
  EXPECT_EQ(Query("byId", {Value::BigInt(2)}), "NULL|NULL|2\n");
  EXPECT_EQ(Query("byId", {Value::BigInt(3)}), "");
}

TEST_F(PointLookupTest, RejectsAKeyThatDoesNotConvertLikeTheGenericPlan) {
  AddBoth("byId", Project(catalog_.IndexLookup("T", "PK_T", {Param(0, kBig)}), {0}), {kBig});
  ASSERT_NO_FATAL_FAILURE(OpenWithRows());
  const std::string fast = Bytes("byId", {Value::Varchar("x")});
  EXPECT_NE(fast.find("BAD_PARAMETER"), std::string::npos) << fast;
  EXPECT_NE(fast.find("parameter 1"), std::string::npos) << fast;
}

}  // namespace
}  // namespace partita
