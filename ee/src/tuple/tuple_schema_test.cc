#include "tuple/tuple_schema.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace partita {
namespace {

// (ID BIGINT, TAG VARCHAR(8) inline, NOTE VARCHAR(100) out of line, N
// INTEGER), all nullable.
class TupleSchemaTest : public ::testing::Test {
 protected:
  TupleSchemaTest() : schema_(Columns()) {}

  static std::vector<ColumnLayout> Columns() {
    std::vector<ColumnLayout> cols(4);
    cols[0] = {"ID", ValueType::kBigInt, 0, true};
    cols[1] = {"TAG", ValueType::kVarchar, 8, true};
    cols[2] = {"NOTE", ValueType::kVarchar, 100, true};
    cols[3] = {"N", ValueType::kInteger, 0, true};
    return cols;
  }

  // A zeroed tuple; freed (with its strings) by the fixture.
  char* NewTuple() {
    tuples_.emplace_back(new char[schema_.tuple_size()]());
    return tuples_.back().get();
  }
  void Fill(char* t, int64_t id, const std::string& tag, const std::string& note, int32_t n) {
    schema_.Set(t, 0, Value::BigInt(id));
    schema_.Set(t, 1, Value::Varchar(tag));
    FreeNote(t);
    schema_.Set(t, 2, Value::Varchar(note));
    schema_.Set(t, 3, Value::Integer(n));
  }
  void FreeNote(char* t) {
    StringBlob* blob = TupleSchema::GetBlob(t, schema_.column(2));
    if (blob != nullptr && !schema_.IsNull(t, 2)) StringBlob::Destroy(blob);
  }
  ~TupleSchemaTest() override {
    for (auto& t : tuples_) FreeNote(t.get());
  }

  TupleSchema schema_;
  std::vector<std::unique_ptr<char[]>> tuples_;
};

TEST_F(TupleSchemaTest, RowIdSitsAfterTheColumnsAndIsKeptApart) {
  char* t = NewTuple();
  Fill(t, 1, "a", "note", 2);
  schema_.SetRowId(t, 42);
  EXPECT_EQ(schema_.row_id(t), 42u);
  EXPECT_EQ(schema_.Get(t, 0).int_value(), 1);
  EXPECT_EQ(schema_.Get(t, 3).int_value(), 2);
  EXPECT_EQ(schema_.tuple_size() % 8, 0u);
}

TEST_F(TupleSchemaTest, RowIdKeepsAll48BitsAndTouchesNoColumn) {
  char* t = NewTuple();
  Fill(t, -1, "tag", "note", -1);
  schema_.SetRowId(t, TupleSchema::kMaxRowId);
  EXPECT_EQ(schema_.row_id(t), TupleSchema::kMaxRowId);
  EXPECT_EQ(schema_.Get(t, 0).int_value(), -1);
  EXPECT_EQ(schema_.Get(t, 3).int_value(), -1);
  schema_.SetRowId(t, 0x0000123456789abcULL);
  EXPECT_EQ(schema_.row_id(t), 0x0000123456789abcULL);
}

// The row id fits the alignment padding of a table of two BIGINTs (a
// COUNT(*) view keyed by a BIGINT): 1 + 1 + 16 + 6 bytes, 24 with padding.
TEST(TupleSchemaSize, RowIdFitsThePaddingOfTwoBigInts) {
  std::vector<ColumnLayout> cols(2);
  cols[0] = {"PHONE", ValueType::kBigInt, 0, false};
  cols[1] = {"VOTES", ValueType::kBigInt, 0, false};
  EXPECT_EQ(TupleSchema(cols).tuple_size(), 24u);
}

TEST_F(TupleSchemaTest, HashImageDependsOnValuesNotOnHistoryOrAddresses) {
  char* a = NewTuple();
  char* b = NewTuple();
  Fill(a, 1, "tag", "the same note", 7);
  // `b` had longer strings and a NULL before; its blob is another allocation.
  Fill(b, 9, "longtag!", std::string(90, 'x'), 1);
  schema_.Set(b, 3, Value::Null(ValueType::kInteger));
  Fill(b, 1, "tag", "the same note", 7);
  EXPECT_NE(TupleSchema::GetBlob(a, schema_.column(2)), TupleSchema::GetBlob(b, schema_.column(2)));
  EXPECT_EQ(schema_.HashImage(a), schema_.HashImage(b));
  schema_.SetRowId(b, 5);  // the row id is not part of the image
  EXPECT_EQ(schema_.HashImage(a), schema_.HashImage(b));
}

TEST_F(TupleSchemaTest, HashImageChangesWithAnyValue) {
  char* base = NewTuple();
  Fill(base, 1, "tag", "note", 7);
  const uint64_t h = schema_.HashImage(base);
  char* t = NewTuple();
  Fill(t, 2, "tag", "note", 7);
  EXPECT_NE(schema_.HashImage(t), h);
  Fill(t, 1, "tah", "note", 7);
  EXPECT_NE(schema_.HashImage(t), h);
  Fill(t, 1, "tag", "notf", 7);
  EXPECT_NE(schema_.HashImage(t), h);
  Fill(t, 1, "tag", "note", 8);
  EXPECT_NE(schema_.HashImage(t), h);
  schema_.Set(t, 3, Value::Null(ValueType::kInteger));
  EXPECT_NE(schema_.HashImage(t), h);
  Fill(t, 1, "tag", "note", 7);
  EXPECT_EQ(schema_.HashImage(t), h);
}

}  // namespace
}  // namespace partita
