// Materialized views against a brute-force model: random inserts, deletes
// and updates in transactions that commit or roll back; after each one the
// views must equal a recomputation from the base table.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>
#include <sstream>

#include "testing/engine_fixture.h"

namespace partita {
namespace {

using testing::Col;
using testing::Param;

class ViewModelTest : public testing::EngineFixture {
 protected:
  void SetUp() override {
    auto& c = catalog_;
    c.Table("T")
        .Column("ID", ValueType::kBigInt, 0, false)
        .Column("G", ValueType::kVarchar, 3, false)
        .Column("X", ValueType::kInteger, 0, true)
        .Column("F", ValueType::kFloat, 0, true)
        .Index("PK_T", {0}, proto::INDEX_KIND_HASH, true, true);
    c.View("V", "T", {1},
           {{proto::AGGREGATE_KIND_COUNT_STAR, -1, "N"},
            {proto::AGGREGATE_KIND_COUNT, 2, "NX"},
            {proto::AGGREGATE_KIND_SUM, 2, "SX"},
            {proto::AGGREGATE_KIND_MIN, 2, "MINX"},
            {proto::AGGREGATE_KIND_MAX, 2, "MAXX"},
            {proto::AGGREGATE_KIND_SUM, 3, "SF"}});
    c.View("W", "T", {1}, {{proto::AGGREGATE_KIND_COUNT_STAR, -1, "N"}, {proto::AGGREGATE_KIND_MIN, 2, "MINX"},
                           {proto::AGGREGATE_KIND_MAX, 2, "MAXX"}});
    *c.catalog().mutable_tables(2)->mutable_view()->mutable_predicate() =
        testing::Binary(proto::EXPRESSION_KIND_GREATER, Col(2, ValueType::kInteger), testing::ConstInt(10, ValueType::kInteger));
    c.Statement("insert", c.InsertParams("T"), c.ColumnTypes("T"));
    c.Statement("delete", c.Delete("T", c.IndexLookup("T", "PK_T", {Param(0, ValueType::kBigInt)})), {ValueType::kBigInt});
    c.Statement("update",
                c.Update("T", c.IndexLookup("T", "PK_T", {Param(0, ValueType::kBigInt)}),
                         {{1, Param(1, ValueType::kVarchar)}, {2, Param(2, ValueType::kInteger)}}),
                {ValueType::kBigInt, ValueType::kVarchar, ValueType::kInteger});
    c.Statement("scanV", c.SeqScan("V"), {});
    c.Statement("scanW", c.SeqScan("W"), {});
    Open();
  }

  struct Row {
    std::string g;
    std::optional<int32_t> x;
    std::optional<double> f;
  };

  static std::string Sorted(const std::string& text) { return testing::SortedLines(text); }

  // Expected view text computed from `model`.
  static std::string ExpectedV(const std::map<int64_t, Row>& model, bool filtered) {
    struct Agg {
      int64_t n = 0, nx = 0, sx = 0, nf = 0;
      double sf = 0;
      std::optional<int32_t> min, max;
    };
    std::map<std::string, Agg> groups;
    for (const auto& [id, r] : model) {
      if (filtered && !(r.x && *r.x > 10)) continue;
      Agg& a = groups[r.g];
      ++a.n;
      if (r.x) {
        ++a.nx;
        a.sx += *r.x;
        a.min = a.min ? std::min(*a.min, *r.x) : *r.x;
        a.max = a.max ? std::max(*a.max, *r.x) : *r.x;
      }
      if (r.f) {
        ++a.nf;
        a.sf += *r.f;
      }
    }
    auto opt = [](std::optional<int32_t> v) { return v ? std::to_string(*v) : std::string("NULL"); };
    std::string out;
    for (const auto& [g, a] : groups) {
      out += "'" + g + "'|" + std::to_string(a.n) + "|";
      if (filtered) {
        out += opt(a.min) + "|" + opt(a.max) + "\n";
        continue;
      }
      out += std::to_string(a.nx) + "|" + (a.nx ? std::to_string(a.sx) : "NULL") + "|" + opt(a.min) + "|" +
             opt(a.max) + "|" + (a.nf ? Value::Float(a.sf).ToString() : "NULL") + "\n";
    }
    return Sorted(out);
  }
};

TEST_F(ViewModelTest, ViewsEqualRecomputationAfterRandomTransactions) {
  std::mt19937_64 rng(7);
  std::map<int64_t, Row> model;
  const char* groups[] = {"a", "b", "c", "dd"};
  auto random_x = [&]() -> std::optional<int32_t> {
    if (rng() % 5 == 0) return std::nullopt;
    return static_cast<int32_t>(rng() % 30);
  };
  for (int txn = 0; txn < 300; ++txn) {
    const std::map<int64_t, Row> before = model;
    const int ops = 1 + static_cast<int>(rng() % 8);
    std::vector<StatementCall> calls;
    for (int op = 0; op < ops; ++op) {
      const int64_t id = static_cast<int64_t>(rng() % 40);
      const std::string g = groups[rng() % 4];
      const std::optional<int32_t> x = random_x();
      const Value xv = x ? Value::Integer(*x) : Value::Null(ValueType::kInteger);
      held_strings_.push_back(g);
      const Value gv = Value::Varchar(held_strings_.back());
      if (!model.contains(id)) {
        const std::optional<double> f = rng() % 3 ? std::optional<double>(static_cast<double>(rng() % 9)) : std::nullopt;
        calls.push_back(Call("insert", {Value::BigInt(id), gv, xv, f ? Value::Float(*f) : Value::Null(ValueType::kFloat)}));
        model[id] = Row{g, x, f};
      } else if (rng() % 2) {
        calls.push_back(Call("delete", {Value::BigInt(id)}));
        model.erase(id);
      } else {
        calls.push_back(Call("update", {Value::BigInt(id), gv, xv}));
        model[id].g = g;
        model[id].x = x;
      }
    }
    const bool rollback = rng() % 4 == 0;
    ASSERT_TRUE(RunBatch(calls, !rollback).ok());
    if (rollback) {
      engine_->Rollback();
      model = before;
    }
    ASSERT_EQ(Sorted(Query("scanV")), ExpectedV(model, false)) << "after transaction " << txn;
    ASSERT_EQ(Sorted(Query("scanW")), ExpectedV(model, true)) << "after transaction " << txn;
  }
}

}  // namespace
}  // namespace partita
