#include "errors.pb.h"
#include "index/hash_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <optional>
#include <random>
#include <set>
#include <unordered_map>

namespace partita {
namespace {

// Tuples of (K BIGINT, G INTEGER, S VARCHAR(8)), built directly with the
// schema (no Table) so the index is exercised alone.
class HashIndexTest : public ::testing::Test {
 protected:
  HashIndexTest() : schema_(Columns()) {}

  static std::vector<ColumnLayout> Columns() {
    std::vector<ColumnLayout> cols(3);
    cols[0] = {"K", ValueType::kBigInt, 0, true};
    cols[1] = {"G", ValueType::kInteger, 0, true};
    cols[2] = {"S", ValueType::kVarchar, 8, true};
    return cols;
  }

  HashIndex MakeIndex(std::vector<int> columns, bool unique) {
    return HashIndex("IX", "IX_CONSTRAINT", IndexKey(&schema_, std::move(columns)), unique, false);
  }

  const char* Tuple(std::optional<int64_t> k, std::optional<int32_t> g = 0, const char* s = "") {
    tuples_.emplace_back(new char[schema_.tuple_size()]());
    char* t = tuples_.back().get();
    schema_.Set(t, 0, k ? Value::BigInt(*k) : Value::Null(ValueType::kBigInt));
    schema_.Set(t, 1, g ? Value::Integer(*g) : Value::Null(ValueType::kInteger));
    schema_.Set(t, 2, Value::Varchar(s));
    schema_.SetRowId(t, next_row_id_++);
    TupleSchema::SetLive(t, true);
    return t;
  }

  // Tuples found by an equality lookup of `key`.
  static std::multiset<const char*> Lookup(const HashIndex& index, std::vector<Value> key) {
    auto cursor = index.NewCursor();
    cursor->SeekEqual(key.data(), static_cast<int>(key.size()));
    std::multiset<const char*> found;
    while (const char* t = cursor->Next()) found.insert(t);
    return found;
  }

  TupleSchema schema_;
  RowId next_row_id_ = 1;
  std::deque<std::unique_ptr<char[]>> tuples_;
};

TEST_F(HashIndexTest, RejectsDuplicateKeyOnUniqueIndex) {
  HashIndex index = MakeIndex({0}, true);
  const char* first = Tuple(1);
  ASSERT_TRUE(index.Insert(first).ok());
  Status s = index.Insert(Tuple(1));
  EXPECT_EQ(s.code(), proto::ERROR_CODE_CONSTRAINT_VIOLATION);
  EXPECT_NE(s.message().find("IX_CONSTRAINT"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("K=1"), std::string::npos) << s.message();
  EXPECT_EQ(index.entry_count(), 1u);
  const Value key = Value::BigInt(1);
  EXPECT_EQ(index.FindUnique(&key), first);
}

TEST_F(HashIndexTest, UniqueIndexAcceptsSeveralRowsWithNullKeys) {
  HashIndex index = MakeIndex({0}, true);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(index.Insert(Tuple(std::nullopt)).ok());
  EXPECT_EQ(index.entry_count(), 3u);
  ASSERT_TRUE(index.Insert(Tuple(5)).ok());
  EXPECT_FALSE(index.Insert(Tuple(5)).ok());
}

TEST_F(HashIndexTest, UniqueTwoColumnKeyConflictsOnlyWithoutNulls) {
  HashIndex index = MakeIndex({0, 1}, true);
  ASSERT_TRUE(index.Insert(Tuple(1, std::nullopt)).ok());
  ASSERT_TRUE(index.Insert(Tuple(1, std::nullopt)).ok());
  ASSERT_TRUE(index.Insert(Tuple(1, 2)).ok());
  ASSERT_TRUE(index.Insert(Tuple(2, 1)).ok());
  EXPECT_EQ(index.Insert(Tuple(1, 2)).code(), proto::ERROR_CODE_CONSTRAINT_VIOLATION);
  EXPECT_EQ(Lookup(index, {Value::BigInt(1), Value::Integer(2)}).size(), 1u);
}

TEST_F(HashIndexTest, LookupKeyOfAnotherNumericTypeFindsTheRow) {
  HashIndex index = MakeIndex({1}, false);
  const char* t = Tuple(0, 42);
  ASSERT_TRUE(index.Insert(t).ok());
  EXPECT_EQ(Lookup(index, {Value::BigInt(42)}), std::multiset<const char*>{t});
  EXPECT_EQ(Lookup(index, {Value::TinyInt(42)}), std::multiset<const char*>{t});
  EXPECT_EQ(Lookup(index, {Value::Float(42.0)}), std::multiset<const char*>{t});
  EXPECT_TRUE(Lookup(index, {Value::Float(42.5)}).empty());
}

TEST_F(HashIndexTest, StringKeysCompareByBytes) {
  HashIndex index = MakeIndex({2}, true);
  const char* a = Tuple(1, 0, "abc");
  ASSERT_TRUE(index.Insert(a).ok());
  ASSERT_TRUE(index.Insert(Tuple(2, 0, "abcd")).ok());
  ASSERT_TRUE(index.Insert(Tuple(3, 0, "")).ok());
  EXPECT_EQ(index.Insert(Tuple(4, 0, "abc")).code(), proto::ERROR_CODE_CONSTRAINT_VIOLATION);
  EXPECT_EQ(Lookup(index, {Value::Varchar("abc")}), std::multiset<const char*>{a});
  EXPECT_EQ(Lookup(index, {Value::Varchar("")}).size(), 1u);
}

TEST_F(HashIndexTest, RemoveReturnsFalseForATupleNotInTheIndex) {
  HashIndex index = MakeIndex({0}, false);
  const char* a = Tuple(1);
  ASSERT_TRUE(index.Insert(a).ok());
  EXPECT_FALSE(index.Remove(Tuple(1)));  // same key, other tuple
  EXPECT_FALSE(index.Remove(Tuple(2)));
  EXPECT_TRUE(index.Remove(a));
  EXPECT_FALSE(index.Remove(a));
  EXPECT_EQ(index.entry_count(), 0u);
}

TEST_F(HashIndexTest, TenThousandRowsUnderOneKeyRemoveOneByOne) {
  HashIndex index = MakeIndex({1}, false);
  std::vector<const char*> same;
  for (int i = 0; i < 10000; ++i) {
    same.push_back(Tuple(i, 7));
    ASSERT_TRUE(index.Insert(same.back()).ok());
    if (i % 10 == 0) {
      ASSERT_TRUE(index.Insert(Tuple(i, i / 10 % 50 + 100)).ok());
    }
  }
  std::multiset<const char*> live(same.begin(), same.end());
  ASSERT_EQ(Lookup(index, {Value::Integer(7)}), live);
  std::mt19937_64 rng(3);
  std::shuffle(same.begin(), same.end(), rng);
  for (size_t i = 0; i < same.size(); ++i) {
    ASSERT_TRUE(index.Remove(same[i])) << i;
    live.erase(same[i]);
    if (i % 499 == 0 || live.size() < 3) {
      ASSERT_EQ(Lookup(index, {Value::Integer(7)}), live) << "after " << i;
    }
  }
  EXPECT_TRUE(Lookup(index, {Value::Integer(7)}).empty());
  EXPECT_EQ(index.entry_count(), 1000u);
  EXPECT_EQ(Lookup(index, {Value::Integer(100)}).size(), 20u);
}

TEST_F(HashIndexTest, GrowthWithInterleavedRemovesMatchesAMultimapModel) {
  HashIndex index = MakeIndex({1}, false);
  std::unordered_multimap<int32_t, const char*> model;
  std::vector<const char*> live;
  std::mt19937_64 rng(11);
  auto check_key = [&](int32_t g) {
    auto [b, e] = model.equal_range(g);
    std::multiset<const char*> expected;
    for (auto it = b; it != e; ++it) expected.insert(it->second);
    ASSERT_EQ(Lookup(index, {Value::Integer(g)}), expected) << "key " << g;
  };
  for (int op = 0; op < 60000; ++op) {
    // Phases: mostly inserts, then mostly removes, repeatedly (grow, shrink).
    const bool grow_phase = (op / 15000) % 2 == 0;
    const int32_t g = static_cast<int32_t>(rng() % 4000);
    if (live.empty() || rng() % 10 < (grow_phase ? 7u : 3u)) {
      const char* t = Tuple(op, g);
      ASSERT_TRUE(index.Insert(t).ok());
      model.emplace(g, t);
      live.push_back(t);
    } else {
      const size_t i = rng() % live.size();
      const char* t = live[i];
      live[i] = live.back();
      live.pop_back();
      const int32_t key = static_cast<int32_t>(schema_.Get(t, 1).int_value());
      auto [b, e] = model.equal_range(key);
      model.erase(std::find_if(b, e, [&](const auto& kv) { return kv.second == t; }));
      ASSERT_TRUE(index.Remove(t));
      ASSERT_FALSE(index.Remove(t));
      if (op % 7 == 0) {
        ASSERT_NO_FATAL_FAILURE(check_key(key));
      }
    }
    if (op % 101 == 0) {
      ASSERT_NO_FATAL_FAILURE(check_key(g));
    }
    ASSERT_EQ(index.entry_count(), model.size());
  }
  for (int32_t g = 0; g < 4000; ++g) ASSERT_NO_FATAL_FAILURE(check_key(g));
}

// Growth is spread over later writes: a new table takes over at 70% load,
// the old one is drained kMigrateSlots slots per write, and while both
// exist every key is found, removed and re-inserted wherever it sits.
TEST_F(HashIndexTest, GrowthMovesOldSlotsAFewPerWriteAndFindsKeysInBothTables) {
  HashIndex index = MakeIndex({0}, true);
  std::vector<const char*> rows;
  int growths = 0;
  size_t longest = 0;  // writes a growth lasted
  size_t writes_in_growth = 0;
  for (int64_t k = 0; k < 50000; ++k) {
    const bool was_growing = index.growing();
    rows.push_back(Tuple(k));
    ASSERT_TRUE(index.Insert(rows.back()).ok());
    if (!was_growing && index.growing()) ++growths;
    if (index.growing()) {
      ++writes_in_growth;
      // Every key so far, in whichever table it is.
      if (k % 97 == 0) {
        for (int64_t j = 0; j <= k; j += 13) {
          const Value key = Value::BigInt(j);
          ASSERT_EQ(index.FindUnique(&key), rows[j]) << "key " << j << " while growing after insert " << k;
        }
        // A key still in the old table can be removed and put back.
        const Value early = Value::BigInt(k / 2);
        ASSERT_TRUE(index.Remove(rows[k / 2]));
        ASSERT_EQ(index.FindUnique(&early), nullptr);
        ASSERT_TRUE(index.Insert(rows[k / 2]).ok());
        ASSERT_EQ(index.FindUnique(&early), rows[k / 2]);
        // And a duplicate is refused whichever table holds the key.
        ASSERT_FALSE(index.Insert(Tuple(k / 3)).ok());
      }
    } else {
      longest = std::max(longest, writes_in_growth);
      writes_in_growth = 0;
    }
  }
  EXPECT_GE(growths, 10);
  // A growth from n slots ends within about n / kMigrateSlots writes (n is
  // at most 131,072 here), not at once and not never.
  EXPECT_GT(longest, 1u);
  EXPECT_LE(longest, 131072 / HashIndex::kMigrateSlots + 1);
  EXPECT_EQ(index.entry_count(), 50000u);
  for (int64_t j = 0; j < 50000; ++j) {
    const Value key = Value::BigInt(j);
    ASSERT_EQ(index.FindUnique(&key), rows[j]) << j;
  }
}

TEST_F(HashIndexTest, PrefetchOfAnyKeyInAnyStateChangesNothing) {
  HashIndex index = MakeIndex({0}, true);
  const Value absent = Value::BigInt(-1);
  const Value text = Value::Varchar("not a number");
  index.Prefetch(&absent);  // empty: its first table
  std::vector<const char*> rows;
  bool prefetched_while_growing = false;
  for (int64_t k = 0; k < 5000; ++k) {
    rows.push_back(Tuple(k));
    ASSERT_TRUE(index.Insert(rows.back()).ok());
    const Value key = Value::BigInt(k / 2);
    index.Prefetch(&key);
    index.Prefetch(&absent);
    index.Prefetch(&text);
    prefetched_while_growing |= index.growing();
  }
  EXPECT_TRUE(prefetched_while_growing);  // both tables' slots were fetched at some point
  EXPECT_EQ(index.entry_count(), 5000u);
  EXPECT_EQ(index.FindUnique(&absent), nullptr);
  for (int64_t j = 0; j < 5000; ++j) {
    const Value key = Value::BigInt(j);
    ASSERT_EQ(index.FindUnique(&key), rows[j]) << j;
  }
}

TEST_F(HashIndexTest, MemoryCountsDuplicateSetsAndReturnsToTheSlotsAlone) {
  HashIndex index = MakeIndex({1}, false);
  const char* only = Tuple(1, 7);
  ASSERT_TRUE(index.Insert(only).ok());
  const size_t slots_only = index.memory_bytes();
  std::vector<const char*> dups;
  for (int i = 0; i < 100; ++i) {
    dups.push_back(Tuple(100 + i, 7));
    ASSERT_TRUE(index.Insert(dups.back()).ok());
  }
  EXPECT_GE(index.memory_bytes(), slots_only + 100 * sizeof(const char*));
  for (const char* t : dups) ASSERT_TRUE(index.Remove(t));
  // Down to one tuple, the key keeps it in its slot: no record left.
  EXPECT_EQ(index.memory_bytes(), slots_only);
  ASSERT_TRUE(index.Remove(only));
  EXPECT_EQ(index.memory_bytes(), slots_only);
}

TEST_F(HashIndexTest, ManyDistinctKeysSurviveDeletionOfTheirNeighbours) {
  HashIndex index = MakeIndex({0}, true);
  std::vector<const char*> tuples;
  for (int k = 0; k < 5000; ++k) {
    tuples.push_back(Tuple(k * 16));  // keys that share low bits
    ASSERT_TRUE(index.Insert(tuples.back()).ok());
  }
  for (int k = 0; k < 5000; k += 2) ASSERT_TRUE(index.Remove(tuples[k]));
  for (int k = 0; k < 5000; ++k) {
    const Value key = Value::BigInt(k * 16);
    EXPECT_EQ(index.FindUnique(&key), k % 2 ? tuples[k] : nullptr) << k;
  }
}

// Values of column G of the tuples a lookup of K = k returns, in order.
std::vector<int64_t> GsInOrder(const HashIndex& index, const TupleSchema& schema, int64_t k) {
  const Value key = Value::BigInt(k);
  auto cursor = index.NewCursor();
  cursor->SeekEqual(&key, 1);
  std::vector<int64_t> out;
  while (const char* t = cursor->Next()) out.push_back(schema.Get(t, 1).int_value());
  return out;
}

TEST_F(HashIndexTest, DuplicatesComeBackInRowIdOrderNotAddressOrder) {
  HashIndex index = MakeIndex({0}, false);
  std::vector<const char*> tuples;
  for (int g = 1; g <= 6; ++g) tuples.push_back(Tuple(5, g));
  for (int i = 0; i < 6; ++i) schema_.SetRowId(const_cast<char*>(tuples[i]), 60 - i);  // G=6 is oldest
  for (const char* t : tuples) ASSERT_TRUE(index.Insert(t).ok());
  EXPECT_EQ(GsInOrder(index, schema_, 5), (std::vector<int64_t>{6, 5, 4, 3, 2, 1}));
}

TEST_F(HashIndexTest, RemovingTheFirstDuplicatePromotesTheNextRowId) {
  HashIndex index = MakeIndex({0}, false);
  const char* a = Tuple(5, 1);
  const char* b = Tuple(5, 2);
  const char* c = Tuple(5, 3);
  for (const char* t : {c, a, b}) ASSERT_TRUE(index.Insert(t).ok());
  EXPECT_EQ(GsInOrder(index, schema_, 5), (std::vector<int64_t>{1, 2, 3}));
  ASSERT_TRUE(index.Remove(a));
  EXPECT_EQ(GsInOrder(index, schema_, 5), (std::vector<int64_t>{2, 3}));
  // Back again (an undone delete): the oldest row is first again.
  ASSERT_TRUE(index.Insert(a).ok());
  EXPECT_EQ(GsInOrder(index, schema_, 5), (std::vector<int64_t>{1, 2, 3}));
  ASSERT_TRUE(index.Remove(b));
  EXPECT_EQ(GsInOrder(index, schema_, 5), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(index.entry_count(), 2u);
}

// Seeded interleaving of inserts, removes and undone removes (an older row
// put back, as a rollback does) over a few keys while the index grows: a
// key's tuples always come back in row-id order, a key that goes from
// several tuples to one keeps its last tuple in the slot again.
TEST_F(HashIndexTest, InterleavedInsertsRemovesAndUndoneRemovesKeepRowIdOrder) {
  HashIndex index = MakeIndex({0}, false);
  std::mt19937_64 rng(20261124);
  std::vector<std::set<const char*>> live(64);  // by key
  std::vector<const char*> removed;
  auto row_ids = [&](const std::set<const char*>& tuples) {
    std::vector<int64_t> ids;
    for (const char* t : tuples) ids.push_back(schema_.row_id(t));
    std::sort(ids.begin(), ids.end());
    return ids;
  };
  auto found_row_ids = [&](int64_t k) {
    const Value key = Value::BigInt(k);
    auto cursor = index.NewCursor();
    cursor->SeekEqual(&key, 1);
    std::vector<int64_t> ids;
    while (const char* t = cursor->Next()) ids.push_back(schema_.row_id(t));
    return ids;
  };
  size_t entries = 0;
  for (int op = 0; op < 40000; ++op) {
    // Keys 0-63 repeat (duplicates); 64 and up are new each time (growth).
    const int64_t k = op % 3 == 0 ? 64 + op : static_cast<int64_t>(rng() % 64);
    const uint64_t choice = rng() % 10;
    if (k >= 64 || choice < 4) {
      ASSERT_TRUE(index.Insert(Tuple(k)).ok());
      if (k < 64) live[k].insert(tuples_.back().get());
      ++entries;
    } else if (choice < 8 && !live[k].empty()) {
      auto it = live[k].begin();
      std::advance(it, rng() % live[k].size());
      ASSERT_TRUE(index.Remove(*it));
      ASSERT_FALSE(index.Remove(*it));
      removed.push_back(*it);
      live[k].erase(it);
      --entries;
    } else if (!removed.empty()) {
      const char* back = removed[rng() % removed.size()];
      const int64_t key = schema_.Get(back, 0).int_value();
      if (live[key].count(back) == 0) {
        ASSERT_TRUE(index.Insert(back).ok());
        live[key].insert(back);
        ++entries;
      }
    }
    if (k < 64) {
      ASSERT_EQ(found_row_ids(k), row_ids(live[k])) << "key " << k << " after op " << op;
    }
    ASSERT_EQ(index.entry_count(), entries);
  }
  for (int64_t k = 0; k < 64; ++k) {
    ASSERT_EQ(found_row_ids(k), row_ids(live[k])) << "key " << k;
    while (live[k].size() > 1) {
      const char* last = *live[k].rbegin();
      ASSERT_TRUE(index.Remove(last));
      live[k].erase(last);
      --entries;
      ASSERT_EQ(found_row_ids(k), row_ids(live[k])) << "key " << k;
    }
  }
  EXPECT_EQ(index.entry_count(), entries);
}

// A snapshot load sizes an empty index for its keys up front: inserting
// that many keys then starts no growth and keeps the one table.
TEST_F(HashIndexTest, ReserveTakesATableThatTheReservedKeysNeverGrow) {
  HashIndex index = MakeIndex({0}, true);
  index.Reserve(10000);
  const size_t capacity = index.capacity();
  EXPECT_GE(capacity * 7, size_t{10000} * 10) << "70% load at most";
  EXPECT_LT(capacity * 7, size_t{20000} * 10) << "the smallest such power of two";
  for (int64_t k = 0; k < 10000; ++k) {
    ASSERT_TRUE(index.Insert(Tuple(k)).ok());
    ASSERT_FALSE(index.growing()) << "key " << k;
  }
  EXPECT_EQ(index.capacity(), capacity);
  index.Reserve(1 << 20);
  EXPECT_LT(index.capacity(), size_t{1} << 20) << "no-op on an index that holds entries";
}

}  // namespace
}  // namespace partita

namespace partita {
namespace {

// A table of 2^15 slots or more (its successor is >= 1 MiB, mapped)
// prepares that successor at 60% load, so the growth at 70% allocates
// nothing: the index's memory steps up at 60%, not at 70%.
TEST_F(HashIndexTest, LargeTablesPrepareTheirNextGrowthTableAtSixtyPercent) {
  HashIndex index = MakeIndex({0}, true);
  constexpr int64_t kSlots = int64_t{1} << 15;  // reached with 22,938 keys (70% of 2^15)
  int64_t k = 0;
  // Up to a table of 2^15 slots with the previous one drained (freed at
  // once: it was small).
  while (index.growing() || index.memory_bytes() != kSlots * 16) ASSERT_TRUE(index.Insert(Tuple(k++)).ok());
  const size_t table_bytes = index.memory_bytes();
  while (!index.growing() && index.memory_bytes() == table_bytes) ASSERT_TRUE(index.Insert(Tuple(k++)).ok());
  EXPECT_FALSE(index.growing()) << "grew at key " << k << " without preparing the next table";
  EXPECT_EQ(k, kSlots * 6 / 10 + 1);
  EXPECT_EQ(index.memory_bytes(), table_bytes * 3);  // this table and the next, twice its size
  const size_t prepared = index.memory_bytes();
  while (!index.growing()) ASSERT_TRUE(index.Insert(Tuple(k++)).ok());
  EXPECT_EQ(k, kSlots * 7 / 10 + 1);
  EXPECT_EQ(index.memory_bytes(), prepared) << "the growth allocated a table of its own";
}

}  // namespace
}  // namespace partita
