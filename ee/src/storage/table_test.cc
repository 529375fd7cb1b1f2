#include "storage/table.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>

#include "index/hash_index.h"
#include "index/ordered_index.h"

namespace partita {
namespace {

// ITEMS(K BIGINT NOT NULL, G INTEGER NOT NULL, S VARCHAR(100), V INTEGER)
// S is long enough to be stored out of line. Indexes: unique hash on K,
// non-unique hash on G, non-unique ordered on V.
struct Row {
  int64_t k;
  int32_t g;
  std::string s;
  std::optional<int32_t> v;
  bool operator==(const Row&) const = default;
};

std::unique_ptr<Table> MakeItems() {
  std::vector<ColumnLayout> cols(4);
  cols[0] = {"K", ValueType::kBigInt, 0, false};
  cols[1] = {"G", ValueType::kInteger, 0, false};
  cols[2] = {"S", ValueType::kVarchar, 100, true};
  cols[3] = {"V", ValueType::kInteger, 0, true};
  auto t = std::make_unique<Table>("ITEMS", TupleSchema(cols), 4);
  t->AddIndex(std::make_unique<HashIndex>("PK", "PK_ITEMS", IndexKey(&t->schema(), {0}), true, true));
  t->AddIndex(std::make_unique<HashIndex>("BY_G", "BY_G", IndexKey(&t->schema(), {1}), false, false));
  t->AddIndex(std::make_unique<OrderedIndex>("BY_V", "BY_V", IndexKey(&t->schema(), {3}), false, false));
  return t;
}

std::vector<Value> Values(const Row& r) {
  return {Value::BigInt(r.k), Value::Integer(r.g), Value::Varchar(r.s),
          r.v ? Value::Integer(*r.v) : Value::Null(ValueType::kInteger)};
}

Row Read(const Table& t, const char* tuple) {
  const TupleSchema& s = t.schema();
  Row r{s.Get(tuple, 0).int_value(), static_cast<int32_t>(s.Get(tuple, 1).int_value()),
        std::string(s.Get(tuple, 2).string_value()), std::nullopt};
  if (!s.IsNull(tuple, 3)) r.v = static_cast<int32_t>(s.Get(tuple, 3).int_value());
  return r;
}

const char* FindByKey(const Table& t, int64_t k) {
  const Value key = Value::BigInt(k);
  return t.primary_key()->FindUnique(&key);
}

// Checks every index and the scan against the model.
void ExpectMatches(const Table& t, const std::map<int64_t, Row>& model) {
  ASSERT_EQ(t.row_count(), static_cast<int64_t>(model.size()));
  std::map<int32_t, int> per_group;
  std::vector<std::optional<int32_t>> vs;
  for (const auto& [k, row] : model) {
    const char* tuple = FindByKey(t, k);
    ASSERT_NE(tuple, nullptr) << "key " << k;
    EXPECT_EQ(Read(t, tuple), row);
    ++per_group[row.g];
    vs.push_back(row.v);
  }
  for (const auto& [g, count] : per_group) {
    auto cursor = t.FindIndex("BY_G")->NewCursor();
    const Value key = Value::Integer(g);
    cursor->SeekEqual(&key, 1);
    int found = 0;
    while (cursor->Next() != nullptr) ++found;
    EXPECT_EQ(found, count) << "group " << g;
  }
  std::sort(vs.begin(), vs.end());  // nullopt first, like NULLs in the index
  auto cursor = t.FindIndex("BY_V")->NewCursor();
  cursor->SeekRange(KeyBound{}, KeyBound{}, ScanOrder::kForward);
  std::vector<std::optional<int32_t>> scanned;
  while (const char* tuple = cursor->Next()) scanned.push_back(Read(t, tuple).v);
  EXPECT_EQ(scanned, vs);
  int64_t live = 0;
  Table::Iterator it = t.Scan();
  while (it.Next() != nullptr) ++live;
  EXPECT_EQ(live, static_cast<int64_t>(model.size()));
}

TEST(TableTest, RandomWritesAndRollbacksKeepEveryIndexExact) {
  auto table = MakeItems();
  UndoLog undo;
  Arena arena;
  std::map<int64_t, Row> model;
  std::mt19937_64 rng(42);
  auto random_row = [&](int64_t k) {
    Row r{k, static_cast<int32_t>(rng() % 7), std::string(rng() % 100, static_cast<char>('a' + rng() % 26)),
          std::nullopt};
    if (rng() % 4 != 0) r.v = static_cast<int32_t>(rng() % 50);
    return r;
  };
  for (int txn = 0; txn < 400; ++txn) {
    std::map<int64_t, Row> before = model;
    const int ops = 1 + static_cast<int>(rng() % 12);
    for (int op = 0; op < ops; ++op) {
      const int64_t k = static_cast<int64_t>(rng() % 60);
      const char* tuple = FindByKey(*table, k);
      ASSERT_EQ(tuple != nullptr, model.contains(k));
      switch (rng() % 3) {
        case 0: {
          const Row r = random_row(k);
          const auto vals = Values(r);
          Status s = table->Insert(vals.data(), &undo);
          ASSERT_EQ(s.ok(), tuple == nullptr) << s.ToString();
          if (s.ok()) model[k] = r;
          break;
        }
        case 1:
          if (tuple == nullptr) break;
          ASSERT_TRUE(table->Delete(tuple, &undo).ok());
          model.erase(k);
          break;
        default: {
          if (tuple == nullptr) break;
          Row r = random_row(static_cast<int64_t>(rng() % 60));  // may move the key
          const auto vals = Values(r);
          Status s = table->Update(tuple, vals.data(), &undo);
          const bool conflict = r.k != k && model.contains(r.k);
          ASSERT_EQ(s.ok(), !conflict) << s.ToString();
          if (s.ok()) {
            model.erase(k);
            model[r.k] = r;
          }
          const int64_t now = s.ok() ? r.k : k;
          ASSERT_EQ(Read(*table, FindByKey(*table, now)), model[now]);
        }
      }
    }
    if (rng() % 3 == 0) {
      undo.Rollback();
      model = before;
    } else {
      undo.Commit();
    }
    ASSERT_NO_FATAL_FAILURE(ExpectMatches(*table, model)) << "after transaction " << txn;
  }
}

TEST(TableTest, ValidateRowNamesTheColumnOfEachError) {
  auto table = MakeItems();
  Arena arena;
  std::vector<Value> out(4);
  std::vector<Value> row = {Value::Null(ValueType::kBigInt), Value::Integer(1), Value::Varchar("x"), Value::Integer(1)};
  Status s = table->ValidateRow(row.data(), out.data(), &arena);
  EXPECT_EQ(s.code(), proto::ERROR_CODE_NOT_NULL_VIOLATION);
  EXPECT_NE(s.message().find("ITEMS.K"), std::string::npos);
  row[0] = Value::BigInt(1);
  row[1] = Value::BigInt(int64_t{1} << 33);
  s = table->ValidateRow(row.data(), out.data(), &arena);
  EXPECT_EQ(s.code(), proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE);
  EXPECT_NE(s.message().find("ITEMS.G"), std::string::npos);
  row[1] = Value::Integer(1);
  const std::string too_long(101, 'x');
  row[2] = Value::Varchar(too_long);
  s = table->ValidateRow(row.data(), out.data(), &arena);
  EXPECT_EQ(s.code(), proto::ERROR_CODE_VALUE_TOO_LONG);
  EXPECT_NE(s.message().find("ITEMS.S"), std::string::npos);
  // 100 multi-byte characters fit VARCHAR(100).
  std::string accented;
  for (int i = 0; i < 100; ++i) accented += "\xc3\xa9";
  row[2] = Value::Varchar(accented);
  EXPECT_TRUE(table->ValidateRow(row.data(), out.data(), &arena).ok());
}

TEST(TableTest, CommittedDeletesReturnTheirMemory) {
  auto table = MakeItems();
  UndoLog undo;
  for (int k = 0; k < 100; ++k) {
    const Row row{k, 1, std::string(90, 'q'), 1};
    const auto vals = Values(row);  // views into `row`
    ASSERT_TRUE(table->Insert(vals.data(), &undo).ok());
  }
  undo.Commit();
  const int64_t full = table->bytes_used();
  const int64_t allocated = table->bytes_allocated();
  for (int k = 0; k < 100; ++k) ASSERT_TRUE(table->Delete(FindByKey(*table, k), &undo).ok());
  undo.Commit();
  EXPECT_EQ(table->bytes_used(), 0);
  EXPECT_GT(full, 100 * 90);
  // Slots are reused: refilling with the same rows allocates nothing new.
  for (int k = 0; k < 100; ++k) {
    const Row row{k, 1, std::string(90, 'q'), 1};
    const auto vals = Values(row);  // views into `row`
    ASSERT_TRUE(table->Insert(vals.data(), &undo).ok());
  }
  undo.Commit();
  EXPECT_EQ(table->bytes_allocated(), allocated);
}

// Inserts `r`; returns the tuple.
const char* Put(Table* t, const Row& r, UndoLog* undo) {
  const std::vector<Value> vals = Values(r);
  const char* tuple = nullptr;
  EXPECT_TRUE(t->Insert(vals.data(), undo, &tuple).ok());
  return tuple;
}

TEST(TableTest, RowIdsFollowInsertOrderAndSurviveAnUpdate) {
  auto t = MakeItems();
  UndoLog undo;
  const char* first = Put(t.get(), {1, 1, "a", 1}, &undo);
  const char* second = Put(t.get(), {2, 1, "b", 2}, &undo);
  EXPECT_EQ(t->schema().row_id(first), 1u);
  EXPECT_EQ(t->schema().row_id(second), 2u);
  const Row changed_row{1, 2, "changed", 3};
  const std::vector<Value> changed = Values(changed_row);
  ASSERT_TRUE(t->Update(first, changed.data(), &undo).ok());
  EXPECT_EQ(t->schema().row_id(first), 1u);
  undo.Commit();
}

TEST(TableTest, UndoingAnInsertGivesItsRowIdBack) {
  auto t = MakeItems();
  UndoLog undo;
  Put(t.get(), {1, 1, "a", 1}, &undo);
  undo.Commit();
  Put(t.get(), {2, 1, "b", 2}, &undo);
  Put(t.get(), {3, 1, "c", 3}, &undo);
  undo.Rollback();
  EXPECT_EQ(t->schema().row_id(Put(t.get(), {4, 1, "d", 4}, &undo)), 2u);
  undo.Commit();
}

TEST(TableTest, AnInsertPastTheLastRowIdIsRefusedAndLeavesNoRow) {
  auto t = MakeItems();
  UndoLog undo;
  const std::vector<Value> last = Values({1, 1, "a", 1});
  ASSERT_TRUE(t->InsertWithRowId(last.data(), TupleSchema::kMaxRowId, &undo).ok());
  const std::vector<Value> next = Values({2, 1, "b", 2});
  const Status s = t->Insert(next.data(), &undo, nullptr);
  EXPECT_EQ(s.code(), proto::ERROR_CODE_CONSTRAINT_VIOLATION);
  EXPECT_NE(s.message().find("ITEMS"), std::string::npos) << s.message();
  EXPECT_EQ(t->row_count(), 1);
  EXPECT_EQ(FindByKey(*t, 2), nullptr);
  undo.Commit();
}

TEST(TableTest, UndoingADeleteRevivesTheRowWithItsRowId) {
  auto t = MakeItems();
  UndoLog undo;
  Put(t.get(), {1, 1, "a", 1}, &undo);
  const char* second = Put(t.get(), {2, 1, "b", 2}, &undo);
  undo.Commit();
  ASSERT_TRUE(t->Delete(second, &undo).ok());
  undo.Rollback();
  const char* back = FindByKey(*t, 2);
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(t->schema().row_id(back), 2u);
  EXPECT_EQ(t->schema().row_id(Put(t.get(), {3, 1, "c", 3}, &undo)), 3u);
  undo.Commit();
}

TEST(TableTest, FreedSlotsAreReusedLowestPositionFirst) {
  auto t = MakeItems();
  UndoLog undo;
  std::vector<const char*> slots;
  for (int k = 0; k < 40; ++k) slots.push_back(Put(t.get(), {k, 0, "x", k}, &undo));
  undo.Commit();
  for (const char* s : slots) ASSERT_TRUE(t->Delete(s, &undo).ok());
  undo.Commit();
  // Freed in order 0..39 (a stack would hand out 39 first).
  for (int k = 100; k < 140; ++k) EXPECT_EQ(Put(t.get(), {k, 0, "y", k}, &undo), slots[k - 100]) << k;
  undo.Commit();
  Table::Iterator it = t->Scan();
  for (int k = 100; k < 140; ++k) EXPECT_EQ(t->schema().Get(it.Next(), 0).int_value(), k);
}

TEST(TableTest, EveryWriteIsFoldedIntoTheTransactionsWriteHash) {
  auto a = MakeItems();
  auto b = MakeItems();
  UndoLog undo_a, undo_b;
  EXPECT_EQ(undo_a.write_hash(), 0u);
  Put(a.get(), {1, 1, "a", 1}, &undo_a);
  Put(b.get(), {1, 1, "a", 1}, &undo_b);
  EXPECT_NE(undo_a.write_hash(), 0u);
  EXPECT_EQ(undo_a.write_hash(), undo_b.write_hash());
  const Row changed_row{1, 1, "a", 2};
  const std::vector<Value> changed = Values(changed_row);
  ASSERT_TRUE(a->Update(FindByKey(*a, 1), changed.data(), &undo_a).ok());
  EXPECT_NE(undo_a.write_hash(), undo_b.write_hash());
  ASSERT_TRUE(b->Update(FindByKey(*b, 1), changed.data(), &undo_b).ok());
  EXPECT_EQ(undo_a.write_hash(), undo_b.write_hash());
  ASSERT_TRUE(a->Delete(FindByKey(*a, 1), &undo_a).ok());
  EXPECT_NE(undo_a.write_hash(), undo_b.write_hash());
  undo_a.Commit();
  undo_b.Rollback();
  EXPECT_EQ(undo_a.write_hash(), 0u);
  EXPECT_EQ(undo_b.write_hash(), 0u);
}

}  // namespace
}  // namespace partita
