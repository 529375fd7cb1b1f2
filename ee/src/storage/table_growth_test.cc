// A table's storage growing through many blocks, under seeded interleaved
// inserts, deletes and rollbacks, against a model of its slots: which
// position each row holds, which positions are free. Checks that fresh
// blocks (not zeroed when allocated) never show a row that was not
// inserted, that the free list (a heap on a deque) hands out the lowest
// free position first however long it grows, and that every row reads back.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <vector>

#include "index/hash_index.h"
#include "storage/table.h"

namespace partita {
namespace {

// PAIRS(K BIGINT NOT NULL, V BIGINT NOT NULL, S VARCHAR(12)) with a unique
// hash index on K; S is short enough to stay inline.
std::unique_ptr<Table> MakePairs() {
  std::vector<ColumnLayout> cols(3);
  cols[0] = {"K", ValueType::kBigInt, 0, false};
  cols[1] = {"V", ValueType::kBigInt, 0, false};
  cols[2] = {"S", ValueType::kVarchar, 12, true};
  auto t = std::make_unique<Table>("PAIRS", TupleSchema(cols), 3);
  t->AddIndex(std::make_unique<HashIndex>("PK", "PK_PAIRS", IndexKey(&t->schema(), {0}), true, true));
  return t;
}

// The table as the test expects it: rows by key, and the slot positions
// (in the order the table first handed each out) with the free ones.
class SlotModel {
 public:
  explicit SlotModel(Table* table) : table_(table) {}

  // Inserts key `k`, checking the slot it lands in. Returns the position.
  size_t Insert(int64_t k, UndoLog* undo) {
    const std::string s = std::to_string(k % 1000);
    const std::vector<Value> row = {Value::BigInt(k), Value::BigInt(k * 3), Value::Varchar(s)};
    const char* tuple = nullptr;
    EXPECT_TRUE(table_->Insert(row.data(), undo, &tuple).ok());
    size_t position = addresses_.size();
    if (free_.empty()) {
      EXPECT_FALSE(known_.contains(tuple)) << "a new slot at an address already handed out";
      addresses_.push_back(tuple);
      known_.insert(tuple);
    } else {
      position = *free_.begin();
      free_.erase(free_.begin());
      EXPECT_EQ(tuple, addresses_[position]) << "not the lowest free position";
    }
    live_[k] = position;
    inserted_.push_back({k, position});
    return position;
  }

  void Delete(int64_t k, UndoLog* undo) {
    ASSERT_TRUE(table_->Delete(addresses_[live_.at(k)], undo).ok());
    deleted_.push_back({k, live_.at(k)});
    live_.erase(k);
  }

  void Commit(UndoLog* undo) {
    undo->Commit();
    for (const auto& [k, position] : deleted_) free_.insert(position);
    inserted_.clear();
    deleted_.clear();
  }

  void Rollback(UndoLog* undo) {
    undo->Rollback();
    // Newest first, as the undo log runs: a row inserted and deleted in
    // this transaction is revived, then removed.
    for (const auto& [k, position] : deleted_) live_[k] = position;
    for (const auto& [k, position] : inserted_) {
      live_.erase(k);
      free_.insert(position);
    }
    inserted_.clear();
    deleted_.clear();
  }

  // Every live row found by key with its values; the scan yields exactly
  // the live rows, in position order.
  void ExpectMatches() const {
    ASSERT_EQ(table_->row_count(), static_cast<int64_t>(live_.size()));
    std::map<size_t, int64_t> by_position;
    for (const auto& [k, position] : live_) {
      const Value key = Value::BigInt(k);
      const char* tuple = table_->primary_key()->FindUnique(&key);
      ASSERT_EQ(tuple, addresses_[position]) << "key " << k;
      ASSERT_EQ(table_->schema().Get(tuple, 1).int_value(), k * 3);
      ASSERT_EQ(table_->schema().Get(tuple, 2).string_value(), std::to_string(k % 1000));
      by_position[position] = k;
    }
    Table::Iterator it = table_->Scan();
    for (const auto& [position, k] : by_position) {
      const char* tuple = it.Next();
      ASSERT_EQ(tuple, addresses_[position]) << "scan at position " << position;
    }
    ASSERT_EQ(it.Next(), nullptr) << "the scan shows a row that is not live";
  }

  bool contains(int64_t k) const { return live_.contains(k); }
  size_t live() const { return live_.size(); }
  size_t free_positions() const { return free_.size(); }
  size_t positions() const { return addresses_.size(); }
  // A live key, picked by `r`. REQUIRES: live() > 0.
  int64_t AnyLive(uint64_t r) const {
    auto it = live_.lower_bound(static_cast<int64_t>(r % static_cast<uint64_t>(live_.rbegin()->first + 1)));
    return it == live_.end() ? live_.begin()->first : it->first;
  }

 private:
  Table* table_;
  std::vector<const char*> addresses_;
  std::set<const char*> known_;
  std::set<size_t> free_;
  std::map<int64_t, size_t> live_;
  std::vector<std::pair<int64_t, size_t>> inserted_;  // this transaction's
  std::vector<std::pair<int64_t, size_t>> deleted_;   // this transaction's
};

// One transaction of `ops` writes: inserts with probability `insert_share`
// (else deletes), rolled back one time in four.
void RunTransaction(SlotModel* model, UndoLog* undo, std::mt19937_64* rng, int ops, double insert_share,
                    int64_t* next_key) {
  std::bernoulli_distribution insert(insert_share);
  for (int i = 0; i < ops; ++i) {
    if (model->live() == 0 || insert(*rng)) {
      model->Insert((*next_key)++, undo);
    } else {
      model->Delete(model->AnyLive((*rng)()), undo);
    }
  }
  if ((*rng)() % 4 == 0) {
    model->Rollback(undo);
  } else {
    model->Commit(undo);
  }
}

TEST(TableGrowthTest, ManyBlocksOfInterleavedWritesAndRollbacksMatchTheSlotModel) {
  auto table = MakePairs();
  UndoLog undo;
  SlotModel model(table.get());
  std::mt19937_64 rng(20261124);
  int64_t next_key = 0;
  // Grow well past the first 1 MiB blocks, mostly inserting.
  for (int txn = 0; model.positions() < 100'000; ++txn) {
    RunTransaction(&model, &undo, &rng, 1 + static_cast<int>(rng() % 400), 0.8, &next_key);
    if (txn % 200 == 0) {
      ASSERT_NO_FATAL_FAILURE(model.ExpectMatches()) << "after transaction " << txn;
    }
  }
  ASSERT_NO_FATAL_FAILURE(model.ExpectMatches());
  // Shrink: the free list grows to most of the positions.
  while (model.live() > 5'000) {
    RunTransaction(&model, &undo, &rng, 1 + static_cast<int>(rng() % 400), 0.1, &next_key);
  }
  ASSERT_NO_FATAL_FAILURE(model.ExpectMatches());
  EXPECT_GT(model.free_positions(), 60'000u);
  // Refill: each insert takes the lowest free position, and a new one only
  // when none is free (both checked by SlotModel::Insert).
  while (model.free_positions() > 0) {
    RunTransaction(&model, &undo, &rng, 1 + static_cast<int>(rng() % 400), 0.9, &next_key);
  }
  ASSERT_NO_FATAL_FAILURE(model.ExpectMatches());
}

// Blocks of 64 KiB and more are allocated (and handed to the warmer) when
// the block before them is half used, so the insert that moves into a new
// block allocates nothing: the table's allocated bytes grow at half-way
// inserts only, one block ahead.
TEST(TableGrowthTest, LargeBlocksArePreparedOneBlockAheadAtHalfWay) {
  std::unique_ptr<Table> table = MakePairs();
  UndoLog undo;
  const size_t tuple_size = table->schema().tuple_size();
  const uint64_t warmed_before = PageWarmer::Instance().warmed_bytes();
  const char* previous = nullptr;
  int64_t allocated = table->bytes_allocated();
  int large_block_switches = 0;
  for (int64_t k = 0; k < 300'000; ++k) {
    const std::vector<Value> row = {Value::BigInt(k), Value::BigInt(k), Value::Varchar("s")};
    const char* tuple = nullptr;
    ASSERT_TRUE(table->Insert(row.data(), &undo, &tuple).ok());
    const bool new_block = previous != nullptr && tuple != previous + tuple_size;
    const int64_t now = table->bytes_allocated();
    // Blocks double from 16 tuples; from 4,096 tuples on they are >= 64 KiB.
    if (new_block && k >= 8192) {
      ++large_block_switches;
      EXPECT_EQ(now, allocated) << "the block at row " << k << " was not prepared ahead";
    }
    // Never more than one block (1 MiB) beyond the rows.
    EXPECT_LE(now - (k + 1) * static_cast<int64_t>(tuple_size), int64_t{2} << 20) << k;
    allocated = now;
    previous = tuple;
    if (k % 4096 == 0) undo.Commit();
  }
  undo.Commit();
  EXPECT_GE(large_block_switches, 3);
  PageWarmer::Instance().Drain();
  if (PageWarmer::Instance().available()) {
    EXPECT_GE(PageWarmer::Instance().warmed_bytes() - warmed_before, uint64_t{3} << 20);
  }
}

}  // namespace
}  // namespace partita
