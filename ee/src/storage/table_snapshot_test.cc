#include "storage/table_snapshot.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>

#include "index/hash_index.h"
#include "storage/row_codec.h"
#include "storage/table.h"

namespace partita {
namespace {

// ITEMS(K BIGINT NOT NULL, S VARCHAR(10), L VARCHAR(100), D DECIMAL, F FLOAT):
// S is inline, L out of line (its blobs die with the rows that held them).
struct Row {
  int64_t k;
  std::optional<std::string> s;
  std::string l;
  int128 d;
  double f;
  bool operator==(const Row&) const = default;
};

std::unique_ptr<Table> MakeItems() {
  std::vector<ColumnLayout> cols(5);
  cols[0] = {"K", ValueType::kBigInt, 0, false};
  cols[1] = {"S", ValueType::kVarchar, 10, true};
  cols[2] = {"L", ValueType::kVarchar, 100, false};
  cols[3] = {"D", ValueType::kDecimal, 0, false};
  cols[4] = {"F", ValueType::kFloat, 0, false};
  auto t = std::make_unique<Table>("ITEMS", TupleSchema(cols), 5);
  t->AddIndex(std::make_unique<HashIndex>("PK", "PK_ITEMS", IndexKey(&t->schema(), {0}), true, true));
  return t;
}

// The values point into r's strings: r must outlive them.
std::vector<Value> Values(Row&&) = delete;
std::vector<Value> Values(const Row& r) {
  return {Value::BigInt(r.k), r.s ? Value::Varchar(*r.s) : Value::Null(ValueType::kVarchar), Value::Varchar(r.l),
          Value::Decimal(r.d), Value::Float(r.f)};
}

Row FromValues(const Value* v) {
  Row r{v[0].int_value(), std::nullopt, std::string(v[2].string_value()), v[3].decimal_value(), v[4].float_value()};
  if (!v[1].is_null()) r.s = std::string(v[1].string_value());
  return r;
}

// (row id, row) in scan order.
using Image = std::vector<std::pair<RowId, Row>>;

Image ScanTable(const Table& t) {
  Image image;
  std::vector<Value> v(t.schema().column_count());
  Table::Iterator it = t.Scan();
  for (const char* tuple = it.Next(); tuple != nullptr; tuple = it.Next()) {
    t.schema().GetAll(tuple, v.data());
    image.emplace_back(t.schema().row_id(tuple), FromValues(v.data()));
  }
  return image;
}

void DecodeAll(const Table& t, std::string_view bytes, Image* image) {
  std::vector<Value> v(t.schema().column_count());
  while (!bytes.empty()) {
    RowId id = 0;
    ASSERT_TRUE(RowCodec::Decode(t.schema(), &bytes, &id, v.data(), "test").ok());
    image->emplace_back(id, FromValues(v.data()));
  }
}

class Writer {
 public:
  Writer(Table* t, uint64_t seed) : t_(t), rng_(seed) {}

  Row RandomRow(int64_t k) {
    Row r{k, std::nullopt, std::string(rng_() % 90, static_cast<char>('a' + rng_() % 26)),
          static_cast<int128>(rng_() % 1000000) * 1000, static_cast<double>(rng_() % 1000) / 8};
    if (rng_() % 3 != 0) r.s = std::string(rng_() % 11, 'x');
    return r;
  }

  // One transaction of a few random writes, committed or (one in four)
  // rolled back.
  void Transaction(int64_t key_space) {
    const int ops = 1 + static_cast<int>(rng_() % 8);
    for (int op = 0; op < ops; ++op) {
      const int64_t k = static_cast<int64_t>(rng_() % key_space);
      const Value key = Value::BigInt(k);
      const char* tuple = t_->primary_key()->FindUnique(&key);
      const Row random = RandomRow(k);
      const auto row = Values(random);
      if (tuple == nullptr) {
        ASSERT_TRUE(t_->Insert(row.data(), &undo_).ok());
      } else if (rng_() % 2 == 0) {
        ASSERT_TRUE(t_->Delete(tuple, &undo_).ok());
      } else {
        ASSERT_TRUE(t_->Update(tuple, row.data(), &undo_).ok());
      }
    }
    if (rng_() % 4 == 0) {
      undo_.Rollback();
    } else {
      undo_.Commit();
    }
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  Table* t_;
  UndoLog undo_;
  std::mt19937_64 rng_;
};

// The stream read out in chunks of `chunk_bytes` between random transactions
// equals the table at the cut, row ids and order included.
void CheckStreamEqualsCut(uint64_t seed, size_t chunk_bytes) {
  auto table = MakeItems();
  Writer writer(table.get(), seed);
  for (int i = 0; i < 300; ++i) writer.Transaction(400);
  const Image cut = ScanTable(*table);
  TableSnapshot* snapshot = table->BeginSnapshot();
  EXPECT_EQ(snapshot->cut_row_count(), static_cast<int64_t>(cut.size()));
  std::string stream;
  int64_t rows = 0;
  while (!snapshot->done()) {
    std::string chunk;
    rows += snapshot->Emit(chunk_bytes, &chunk);
    stream += chunk;
    const int txns = static_cast<int>(writer.rng()() % 6);
    for (int i = 0; i < txns; ++i) writer.Transaction(500);
  }
  EXPECT_EQ(snapshot->preserved_rows(), 0u) << "every kept image is emitted when the scan passes it";
  EXPECT_EQ(snapshot->preserved_bytes(), 0u);
  table->EndSnapshot();
  Image streamed;
  DecodeAll(*table, stream, &streamed);
  EXPECT_EQ(rows, static_cast<int64_t>(cut.size()));
  ASSERT_EQ(streamed.size(), cut.size()) << "seed " << seed;
  EXPECT_TRUE(streamed == cut) << "seed " << seed;
}

TEST(TableSnapshotTest, StreamEqualsTheCutUnderInterleavedWritesAndRollbacks) {
  for (uint64_t seed = 1; seed <= 30; ++seed) CheckStreamEqualsCut(seed, 200 + seed * 37);
}

TEST(TableSnapshotTest, OneLargeChunkEqualsTheCut) { CheckStreamEqualsCut(99, 1 << 20); }

TEST(TableSnapshotTest, EmptyTableIsDoneAtOnce) {
  auto table = MakeItems();
  TableSnapshot* snapshot = table->BeginSnapshot();
  EXPECT_TRUE(snapshot->done());
  std::string out;
  EXPECT_EQ(snapshot->Emit(1024, &out), 0);
  EXPECT_TRUE(out.empty());
}

TEST(TableSnapshotTest, RowsInsertedAfterTheCutAreNotYielded) {
  auto table = MakeItems();
  Writer writer(table.get(), 7);
  UndoLog undo;
  const Row a_row{1, "a", "first", 1, 1.5};
  const auto a = Values(a_row);
  ASSERT_TRUE(table->Insert(a.data(), &undo).ok());
  undo.Commit();
  TableSnapshot* snapshot = table->BeginSnapshot();
  for (int64_t k = 2; k < 100; ++k) {
    const Row source_row{k, std::nullopt, "later", 0, 0};
    const auto row = Values(source_row);
    ASSERT_TRUE(table->Insert(row.data(), &undo).ok());
  }
  undo.Commit();
  std::string out;
  while (!snapshot->done()) snapshot->Emit(1 << 20, &out);
  Image streamed;
  DecodeAll(*table, out, &streamed);
  ASSERT_EQ(streamed.size(), 1u);
  EXPECT_EQ(streamed[0].second, (Row{1, "a", "first", 1, 1.5}));
}

TEST(TableSnapshotTest, DeletedRowWhoseSlotIsReusedKeepsItsCutImage) {
  auto table = MakeItems();
  UndoLog undo;
  const Row old_row{5, std::nullopt, std::string(80, 'o'), 42, 2.25};
  const auto old_values = Values(old_row);
  ASSERT_TRUE(table->Insert(old_values.data(), &undo).ok());
  undo.Commit();
  TableSnapshot* snapshot = table->BeginSnapshot();
  const Value key = Value::BigInt(5);
  ASSERT_TRUE(table->Delete(table->primary_key()->FindUnique(&key), &undo).ok());
  undo.Commit();  // frees the slot and the out-of-line string
  EXPECT_EQ(snapshot->preserved_rows(), 1u);
  EXPECT_GT(snapshot->preserved_bytes(), 80u);
  const Row reuse_row{6, "n", std::string(80, 'n'), 0, 0};
  const auto reuse = Values(reuse_row);
  ASSERT_TRUE(table->Insert(reuse.data(), &undo).ok());  // takes the freed slot
  undo.Commit();
  std::string out;
  snapshot->Emit(1 << 20, &out);
  EXPECT_TRUE(snapshot->done());
  Image streamed;
  DecodeAll(*table, out, &streamed);
  ASSERT_EQ(streamed.size(), 1u);
  EXPECT_EQ(streamed[0].first, 1u);
  EXPECT_EQ(streamed[0].second, old_row);
}

TEST(TableSnapshotTest, RowChangedAfterTheScanPassedItIsNotKept) {
  auto table = MakeItems();
  UndoLog undo;
  const Row source_row{1, "a", "x", 0, 0};
  const auto row = Values(source_row);
  ASSERT_TRUE(table->Insert(row.data(), &undo).ok());
  undo.Commit();
  TableSnapshot* snapshot = table->BeginSnapshot();
  std::string out;
  snapshot->Emit(1 << 20, &out);
  const Value key = Value::BigInt(1);
  const Row changed_row{1, "b", "y", 1, 1};
  const auto changed = Values(changed_row);
  ASSERT_TRUE(table->Update(table->primary_key()->FindUnique(&key), changed.data(), &undo).ok());
  undo.Commit();
  EXPECT_EQ(snapshot->preserved_rows(), 0u);
}

TEST(RowCodecTest, TruncatedRowNamesTheColumn) {
  auto table = MakeItems();
  UndoLog undo;
  const Row source_row{1, "abc", "long text", 7, 0.5};
  const auto row = Values(source_row);
  const char* tuple = nullptr;
  ASSERT_TRUE(table->Insert(row.data(), &undo, &tuple).ok());
  std::string bytes;
  RowCodec::Encode(table->schema(), tuple, &bytes);
  std::string_view cut(bytes.data(), bytes.size() - 3);
  RowId id = 0;
  std::vector<Value> v(5);
  const Status s = RowCodec::Decode(table->schema(), &cut, &id, v.data(), "chunk of ITEMS");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("chunk of ITEMS: the row ends early in column F"), std::string::npos) << s.message();
}

TEST(RowCodecTest, BadPresenceByteIsAnError) {
  auto table = MakeItems();
  std::string bytes(8, '\0');
  bytes.push_back(7);
  std::string_view in(bytes);
  RowId id = 0;
  std::vector<Value> v(5);
  const Status s = RowCodec::Decode(table->schema(), &in, &id, v.data(), "chunk");
  EXPECT_NE(s.message().find("column K has presence byte 7"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace partita
