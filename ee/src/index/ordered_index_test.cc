#include "errors.pb.h"
#include "index/ordered_index.h"

#include <gtest/gtest.h>

#include <deque>
#include <optional>
#include <string>

namespace partita {
namespace {

// Tuples of (A INTEGER, B INTEGER), both nullable; rows print as "A/B".
class OrderedIndexTest : public ::testing::Test {
 protected:
  OrderedIndexTest() : schema_(Columns()) {}

  static std::vector<ColumnLayout> Columns() {
    std::vector<ColumnLayout> cols(2);
    cols[0] = {"A", ValueType::kInteger, 0, true};
    cols[1] = {"B", ValueType::kInteger, 0, true};
    return cols;
  }

  std::unique_ptr<OrderedIndex> MakeIndex(std::vector<int> columns, bool unique) {
    return std::make_unique<OrderedIndex>("IX", "IX_CONSTRAINT", IndexKey(&schema_, std::move(columns)), unique,
                                          false);
  }

  const char* Tuple(std::optional<int32_t> a, std::optional<int32_t> b = std::nullopt) {
    tuples_.emplace_back(new char[schema_.tuple_size()]());
    char* t = tuples_.back().get();
    schema_.Set(t, 0, a ? Value::Integer(*a) : Value::Null(ValueType::kInteger));
    schema_.Set(t, 1, b ? Value::Integer(*b) : Value::Null(ValueType::kInteger));
    schema_.SetRowId(t, next_row_id_++);
    TupleSchema::SetLive(t, true);
    return t;
  }

  // Index with A = 1..10 (B = A * 10).
  std::unique_ptr<OrderedIndex> OneToTen() {
    auto index = MakeIndex({0}, true);
    for (int a = 10; a >= 1; --a) EXPECT_TRUE(index->Insert(Tuple(a, a * 10)).ok());
    return index;
  }

  std::string Drain(IndexCursor* cursor) {
    std::string out;
    while (const char* t = cursor->Next()) {
      if (!out.empty()) out += ' ';
      out += schema_.Get(t, 0).ToString() + "/" + schema_.Get(t, 1).ToString();
    }
    return out;
  }

  std::string Range(const OrderedIndex& index, std::vector<Value> lower, bool lower_inclusive, std::vector<Value> upper,
                    bool upper_inclusive, ScanOrder order = ScanOrder::kForward) {
    auto cursor = index.NewCursor();
    cursor->SeekRange(KeyBound{lower.data(), static_cast<int>(lower.size()), lower_inclusive},
                      KeyBound{upper.data(), static_cast<int>(upper.size()), upper_inclusive}, order);
    return Drain(cursor.get());
  }

  std::string Equal(const OrderedIndex& index, std::vector<Value> key) {
    auto cursor = index.NewCursor();
    cursor->SeekEqual(key.data(), static_cast<int>(key.size()));
    return Drain(cursor.get());
  }

  TupleSchema schema_;
  RowId next_row_id_ = 1;
  std::deque<std::unique_ptr<char[]>> tuples_;
};

Value I(int32_t v) { return Value::Integer(v); }

TEST_F(OrderedIndexTest, PrefixSeekEqualOnTwoColumnKeyReturnsMatchesInOrder) {
  auto index = MakeIndex({0, 1}, false);
  for (auto [a, b] : std::vector<std::pair<int, int>>{{2, 1}, {1, 2}, {1, 1}, {0, 9}, {1, 3}}) {
    ASSERT_TRUE(index->Insert(Tuple(a, b)).ok());
  }
  ASSERT_TRUE(index->Insert(Tuple(1, std::nullopt)).ok());
  EXPECT_EQ(Equal(*index, {I(1)}), "1/NULL 1/1 1/2 1/3");
  EXPECT_EQ(Equal(*index, {I(1), I(2)}), "1/2");
  EXPECT_EQ(Equal(*index, {I(3)}), "");
  EXPECT_EQ(Equal(*index, {Value::BigInt(2)}), "2/1");
}

TEST_F(OrderedIndexTest, RangesHonourInclusiveAndExclusiveBounds) {
  auto index = OneToTen();
  EXPECT_EQ(Range(*index, {I(3)}, true, {I(5)}, true), "3/30 4/40 5/50");
  EXPECT_EQ(Range(*index, {I(3)}, false, {I(5)}, true), "4/40 5/50");
  EXPECT_EQ(Range(*index, {I(3)}, true, {I(5)}, false), "3/30 4/40");
  EXPECT_EQ(Range(*index, {I(3)}, false, {I(5)}, false), "4/40");
}

TEST_F(OrderedIndexTest, BackwardRangesHonourTheSameBounds) {
  auto index = OneToTen();
  EXPECT_EQ(Range(*index, {I(3)}, true, {I(5)}, true, ScanOrder::kBackward), "5/50 4/40 3/30");
  EXPECT_EQ(Range(*index, {I(3)}, false, {I(5)}, false, ScanOrder::kBackward), "4/40");
  EXPECT_EQ(Range(*index, {}, true, {I(2)}, true, ScanOrder::kBackward), "2/20 1/10");
  EXPECT_EQ(Range(*index, {I(9)}, false, {}, true, ScanOrder::kBackward), "10/100");
}

TEST_F(OrderedIndexTest, UnboundedSidesReachTheEnds) {
  auto index = OneToTen();
  EXPECT_EQ(Range(*index, {}, true, {I(2)}, false), "1/10");
  EXPECT_EQ(Range(*index, {I(9)}, true, {}, true), "9/90 10/100");
  EXPECT_EQ(Range(*index, {}, true, {}, true).size(), std::string("1/10 2/20 3/30 4/40 5/50 6/60 7/70 8/80 9/90 10/100").size());
}

TEST_F(OrderedIndexTest, EmptyAndInvertedRangesReturnNothing) {
  auto index = OneToTen();
  EXPECT_EQ(Range(*index, {I(5)}, false, {I(5)}, false), "");
  EXPECT_EQ(Range(*index, {I(5)}, true, {I(5)}, false), "");
  EXPECT_EQ(Range(*index, {I(5)}, true, {I(5)}, true), "5/50");
  EXPECT_EQ(Range(*index, {I(7)}, true, {I(3)}, true), "");
  EXPECT_EQ(Range(*index, {I(7)}, true, {I(3)}, true, ScanOrder::kBackward), "");
  EXPECT_EQ(Range(*index, {I(11)}, true, {}, true), "");
  EXPECT_EQ(Range(*index, {}, true, {I(0)}, true, ScanOrder::kBackward), "");
  EXPECT_EQ(Range(*index, {I(4)}, false, {I(5)}, false, ScanOrder::kBackward), "");
}

TEST_F(OrderedIndexTest, RangeOverEmptyIndexReturnsNothing) {
  auto index = MakeIndex({0}, false);
  EXPECT_EQ(Range(*index, {}, true, {}, true), "");
  EXPECT_EQ(Range(*index, {I(1)}, true, {I(2)}, true, ScanOrder::kBackward), "");
  EXPECT_EQ(Equal(*index, {I(1)}), "");
}

TEST_F(OrderedIndexTest, PrefixBoundsOnTwoColumnKey) {
  auto index = MakeIndex({0, 1}, false);
  for (int a = 1; a <= 3; ++a) {
    for (int b = 1; b <= 2; ++b) ASSERT_TRUE(index->Insert(Tuple(a, b)).ok());
  }
  EXPECT_EQ(Range(*index, {I(1)}, false, {I(3)}, false), "2/1 2/2");
  EXPECT_EQ(Range(*index, {I(1), I(2)}, true, {I(3), I(1)}, true), "1/2 2/1 2/2 3/1");
  EXPECT_EQ(Range(*index, {I(2)}, true, {I(2), I(1)}, false, ScanOrder::kBackward), "");
  EXPECT_EQ(Range(*index, {I(2)}, true, {I(2), I(2)}, false, ScanOrder::kBackward), "2/1");
}

TEST_F(OrderedIndexTest, NullKeysSortFirst) {
  auto index = MakeIndex({0}, false);
  ASSERT_TRUE(index->Insert(Tuple(1, 1)).ok());
  ASSERT_TRUE(index->Insert(Tuple(std::nullopt, 2)).ok());
  ASSERT_TRUE(index->Insert(Tuple(-5, 3)).ok());
  EXPECT_EQ(Range(*index, {}, true, {}, true), "NULL/2 -5/3 1/1");
}

TEST_F(OrderedIndexTest, UniqueIndexRejectsAnEqualKeyOnEitherSide) {
  auto index = MakeIndex({0}, true);
  // Row ids 1, 2, 3 in creation order; the duplicate may sort before or after.
  const char* low = Tuple(1);
  const char* mid = Tuple(2);
  const char* high = Tuple(1);
  ASSERT_TRUE(index->Insert(mid).ok());
  ASSERT_TRUE(index->Insert(high).ok());
  Status s = index->Insert(low);
  EXPECT_EQ(s.code(), proto::ERROR_CODE_CONSTRAINT_VIOLATION);
  EXPECT_NE(s.message().find("IX_CONSTRAINT"), std::string::npos) << s.message();
  ASSERT_TRUE(index->Remove(high));
  ASSERT_TRUE(index->Insert(low).ok());
  EXPECT_EQ(index->Insert(high).code(), proto::ERROR_CODE_CONSTRAINT_VIOLATION);
  EXPECT_EQ(index->entry_count(), 2u);
}

TEST_F(OrderedIndexTest, UniqueIndexAcceptsRepeatedNullKeys) {
  auto index = MakeIndex({0, 1}, true);
  ASSERT_TRUE(index->Insert(Tuple(1, std::nullopt)).ok());
  ASSERT_TRUE(index->Insert(Tuple(1, std::nullopt)).ok());
  ASSERT_TRUE(index->Insert(Tuple(1, 1)).ok());
  EXPECT_FALSE(index->Insert(Tuple(1, 1)).ok());
  EXPECT_EQ(Equal(*index, {I(1)}), "1/NULL 1/NULL 1/1");
}

TEST_F(OrderedIndexTest, FindUniqueAndRemove) {
  auto index = OneToTen();
  const Value key = I(4);
  const char* four = index->FindUnique(&key);
  ASSERT_NE(four, nullptr);
  EXPECT_EQ(schema_.Get(four, 1).int_value(), 40);
  EXPECT_TRUE(index->Remove(four));
  EXPECT_FALSE(index->Remove(four));
  EXPECT_EQ(index->FindUnique(&key), nullptr);
  EXPECT_EQ(Range(*index, {I(3)}, true, {I(5)}, true), "3/30 5/50");
}

TEST_F(OrderedIndexTest, EqualKeysAreOrderedByRowIdNotAddress) {
  auto index = MakeIndex({0}, false);
  // Created (at increasing addresses) with descending row ids.
  std::vector<const char*> tuples;
  for (int b = 1; b <= 5; ++b) tuples.push_back(Tuple(7, b));
  for (int i = 0; i < 5; ++i) schema_.SetRowId(const_cast<char*>(tuples[i]), 100 - i);
  for (const char* t : tuples) ASSERT_TRUE(index->Insert(t).ok());
  EXPECT_EQ(Equal(*index, {I(7)}), "7/5 7/4 7/3 7/2 7/1");
  EXPECT_EQ(Range(*index, {}, true, {}, true, ScanOrder::kBackward), "7/1 7/2 7/3 7/4 7/5");
  ASSERT_TRUE(index->Remove(tuples[2]));
  EXPECT_EQ(Equal(*index, {I(7)}), "7/5 7/4 7/2 7/1");
}

}  // namespace
}  // namespace partita
