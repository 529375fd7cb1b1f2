// The engine's online snapshot: the stream read out between random
// transactions (commits and rollbacks, string columns in and out of line)
// equals the tables and views at the cut, and loading it into an empty
// engine gives the same rows, indexes and views; a stream of the format
// before views were streamed still loads, its views rebuilt.
#include <gtest/gtest.h>

#include <random>

#include "engine/snapshot_chunk.h"
#include "errors.pb.h"
#include "testing/engine_fixture.h"

namespace partita {
namespace {

using testing::Param;

class SnapshotStreamTest : public testing::EngineFixture {
 protected:
  void SetUp() override {
    auto& c = catalog_;
    c.Table("T")
        .Column("ID", ValueType::kBigInt, 0, false)
        .Column("G", ValueType::kVarchar, 3, false)
        .Column("S", ValueType::kVarchar, 200, true)
        .Column("X", ValueType::kInteger, 0, true)
        .Index("PK_T", {0}, proto::INDEX_KIND_HASH, true, true);
    c.Table("E").Column("K", ValueType::kInteger, 0, false);
    c.View("V", "T", {1}, {{proto::AGGREGATE_KIND_COUNT_STAR, -1, "N"}, {proto::AGGREGATE_KIND_SUM, 3, "SX"}});
    c.Statement("insert", c.InsertParams("T"), c.ColumnTypes("T"));
    c.Statement("delete", c.Delete("T", c.IndexLookup("T", "PK_T", {Param(0, ValueType::kBigInt)})), {ValueType::kBigInt});
    c.Statement("update",
                c.Update("T", c.IndexLookup("T", "PK_T", {Param(0, ValueType::kBigInt)}),
                         {{2, Param(1, ValueType::kVarchar)}, {3, Param(2, ValueType::kInteger)}}),
                {ValueType::kBigInt, ValueType::kVarchar, ValueType::kInteger});
    c.Statement("get", c.IndexLookup("T", "PK_T", {Param(0, ValueType::kBigInt)}), {ValueType::kBigInt});
    c.Statement("scanT", c.SeqScan("T"), {});
    c.Statement("scanV", c.SeqScan("V"), {});
    Open();
  }

  // One random transaction on ids below `ids`: inserts, updates, deletes;
  // one in four rolls back, one in ten fails on a duplicate key.
  void RandomTransaction(std::mt19937_64& rng, int64_t ids) {
    std::vector<StatementCall> calls;
    const int ops = 1 + static_cast<int>(rng() % 6);
    for (int op = 0; op < ops; ++op) {
      const int64_t id = static_cast<int64_t>(rng() % ids);
      held_strings_.push_back(std::string(1, static_cast<char>('a' + rng() % 4)));
      const Value g = Value::Varchar(held_strings_.back());
      held_strings_.push_back(std::string(rng() % 150, static_cast<char>('k' + rng() % 10)));
      const Value s = rng() % 5 == 0 ? Value::Null(ValueType::kVarchar) : Value::Varchar(held_strings_.back());
      const Value x = Value::Integer(static_cast<int32_t>(rng() % 100));
      switch (rng() % 3) {
        case 0: calls.push_back(Call("insert", {Value::BigInt(id), g, s, x})); break;
        case 1: calls.push_back(Call("delete", {Value::BigInt(id)})); break;
        default: calls.push_back(Call("update", {Value::BigInt(id), s, x})); break;
      }
    }
    const bool rollback = rng() % 4 == 0;
    const Status st = RunBatch(calls, !rollback);  // a duplicate insert fails and rolls back
    if (st.ok() && rollback) engine_->Rollback();
    ASSERT_FALSE(engine_->in_transaction());
  }

  // Every chunk of a snapshot begun now, with random transactions between
  // chunks unless `quiet`.
  std::vector<std::string> StreamUnderLoad(std::mt19937_64& rng, size_t chunk_bytes, bool quiet = false) {
    EXPECT_TRUE(engine_->BeginSnapshot().ok());
    std::vector<std::string> chunks;
    for (;;) {
      std::string chunk;
      Result<bool> more = engine_->NextSnapshotChunk(chunk_bytes, &chunk);
      EXPECT_TRUE(more.ok()) << more.status().ToString();
      if (!more.ok() || !more.value()) break;
      chunks.push_back(std::move(chunk));
      for (int i = quiet ? 0 : static_cast<int>(rng() % 5); i > 0; --i) RandomTransaction(rng, 600);
    }
    EXPECT_FALSE(engine_->snapshot_active());
    return chunks;
  }

  // Opens a fresh engine of the same catalog and loads `chunks` into it.
  std::unique_ptr<Engine> Restore(const std::vector<std::string>& chunks) {
    Result<std::unique_ptr<Engine>> e = Engine::Open(catalog_.catalog(), EngineOptions{});
    EXPECT_TRUE(e.ok());
    for (const std::string& c : chunks) {
      const Status s = e.value()->LoadSnapshotChunk({reinterpret_cast<const uint8_t*>(c.data()), c.size()});
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
    return std::move(e).value();
  }

  // The chunks as the format before views were streamed wrote them: no
  // view chunks, no table row count in the headers.
  static std::vector<std::string> AsFormatWithoutViews(const std::vector<std::string>& chunks,
                                                       const std::string& view = "V") {
    std::vector<std::string> old;
    for (const std::string& c : chunks) {
      std::string_view rest = c;
      Result<SnapshotChunk> header = SnapshotChunk::Parse(&rest);
      EXPECT_TRUE(header.ok()) << header.status().ToString();
      if (header->table == view) continue;
      header->format = SnapshotChunk::kFormatWithoutViews;
      std::string chunk;
      header->AppendTo(&chunk);
      chunk.append(rest);
      old.push_back(std::move(chunk));
    }
    return old;
  }

  // Chunks of `table` in `chunks`.
  static std::vector<std::string> ChunksOf(const std::vector<std::string>& chunks, const std::string& table) {
    std::vector<std::string> of;
    for (const std::string& c : chunks) {
      std::string_view rest = c;
      if (SnapshotChunk::Parse(&rest)->table == table) of.push_back(c);
    }
    return of;
  }

  Status LoadInto(Engine* engine, std::string_view chunk) {
    return engine->LoadSnapshotChunk({reinterpret_cast<const uint8_t*>(chunk.data()), chunk.size()});
  }

  // Query against `engine` instead of the fixture's.
  std::string QueryOn(std::unique_ptr<Engine>& engine, const std::string& name, const std::vector<Value>& p = {}) {
    std::swap(engine, engine_);
    std::string out = Query(name, p);
    std::swap(engine, engine_);
    return out;
  }
};

TEST_F(SnapshotStreamTest, StreamLoadedBackEqualsTheCutUnderRandomWrites) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    Open();
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 400; ++i) RandomTransaction(rng, 500);
    const std::string cut_rows = Query("scanT");
    const std::string cut_view = testing::SortedLines(Query("scanV"));
    const std::vector<std::string> chunks = StreamUnderLoad(rng, 300 + seed * 500);
    EXPECT_GT(chunks.size(), 2u) << "small chunks: the stream spans many";
    std::unique_ptr<Engine> restored = Restore(chunks);
    EXPECT_EQ(QueryOn(restored, "scanT"), cut_rows) << "seed " << seed << ": rows, values and scan order";
    EXPECT_EQ(testing::SortedLines(QueryOn(restored, "scanV")), cut_view) << "seed " << seed << ": the view's rows";
    std::istringstream lines(cut_rows);
    int checked = 0;
    for (std::string line; std::getline(lines, line) && checked < 50; ++checked) {  // the key index is rebuilt
      const int64_t id = std::stoll(line.substr(0, line.find('|')));
      EXPECT_EQ(QueryOn(restored, "get", {Value::BigInt(id)}), line + "\n") << "seed " << seed;
    }
  }
}

TEST_F(SnapshotStreamTest, EmptyTablesStillHaveOneChunkEach) {
  std::mt19937_64 rng(3);
  const std::vector<std::string> chunks = StreamUnderLoad(rng, 1024);
  EXPECT_EQ(chunks.size(), 3u) << "T, E and the view V";
  std::unique_ptr<Engine> restored = Restore(chunks);
  EXPECT_EQ(QueryOn(restored, "scanT"), "");
}

TEST_F(SnapshotStreamTest, RestoredEngineWritesWhatTheOriginalWrites) {
  ASSERT_TRUE(Run("insert", {Value::BigInt(1), Value::Varchar("a"), Value::Varchar("x"), Value::Integer(1)}).ok());
  ASSERT_TRUE(Run("insert", {Value::BigInt(2), Value::Varchar("a"), Value::Varchar("y"), Value::Integer(2)}).ok());
  ASSERT_TRUE(Run("delete", {Value::BigInt(2)}).ok());
  std::mt19937_64 rng(1);
  const std::vector<std::string> chunks = StreamUnderLoad(rng, 1 << 20, /*quiet=*/true);
  std::unique_ptr<Engine> restored = Restore(chunks);
  // The same insert on both writes the same rows (table and view) in the
  // same order: equal write hashes.
  const StatementCall call =
      Call("insert", {Value::BigInt(3), Value::Varchar("b"), Value::Varchar("z"), Value::Integer(3)});
  ResultSet original;
  ResultSet copy;
  BatchOptions options;
  options.final_batch = false;
  ASSERT_TRUE(engine_->ExecuteBatch({&call, 1}, options, &original).ok());
  ASSERT_TRUE(restored->ExecuteBatch({&call, 1}, options, &copy).ok());
  EXPECT_EQ(original.write_hash(), copy.write_hash());
  engine_->Rollback();
  restored->Rollback();
}

TEST_F(SnapshotStreamTest, BeginIsRefusedInsideATransactionAndTwice) {
  ASSERT_TRUE(RunBatch({Call("scanT", {})}, false).ok());
  EXPECT_EQ(engine_->BeginSnapshot().code(), proto::ERROR_CODE_BAD_REQUEST);
  engine_->Rollback();
  ASSERT_TRUE(engine_->BeginSnapshot().ok());
  EXPECT_EQ(engine_->BeginSnapshot().code(), proto::ERROR_CODE_BAD_REQUEST);
  engine_->AbortSnapshot();
  EXPECT_FALSE(engine_->snapshot_active());
  std::string chunk;
  EXPECT_FALSE(engine_->NextSnapshotChunk(1024, &chunk).ok()) << "no snapshot after the abort";
}

TEST_F(SnapshotStreamTest, CatalogUpdateWaitsForTheSnapshot) {
  ASSERT_TRUE(engine_->BeginSnapshot().ok());
  const Status s = engine_->UpdateCatalog(catalog_.catalog());
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_REQUEST);
  EXPECT_NE(s.message().find("a snapshot is being taken"), std::string::npos) << s.message();
  engine_->AbortSnapshot();
  EXPECT_TRUE(engine_->UpdateCatalog(catalog_.catalog()).ok());
}

TEST_F(SnapshotStreamTest, LoadRefusesATableThatHoldsRows) {
  ASSERT_TRUE(Run("insert", {Value::BigInt(1), Value::Varchar("a"), Value::Varchar("x"), Value::Integer(1)}).ok());
  std::mt19937_64 rng(1);
  const std::vector<std::string> chunks = StreamUnderLoad(rng, 1 << 20, /*quiet=*/true);
  const Status s = engine_->LoadSnapshotChunk({reinterpret_cast<const uint8_t*>(chunks[0].data()), chunks[0].size()});
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_REQUEST);
  EXPECT_NE(s.message().find("table T: the table already holds 1 rows"), std::string::npos) << s.message();
}

TEST_F(SnapshotStreamTest, LoadRefusesChunksOutOfOrderAndDamagedOnes) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 200; ++i) RandomTransaction(rng, 500);
  const std::vector<std::string> chunks = StreamUnderLoad(rng, 500);
  ASSERT_GT(chunks.size(), 3u);
  Result<std::unique_ptr<Engine>> e = Engine::Open(catalog_.catalog(), EngineOptions{});
  ASSERT_TRUE(e.ok());
  auto load = [&](std::string_view c) {
    return e.value()->LoadSnapshotChunk({reinterpret_cast<const uint8_t*>(c.data()), c.size()});
  };
  Status s = load(chunks[1]);
  EXPECT_NE(s.message().find("chunk 1 where chunk 0 was expected"), std::string::npos) << s.message();
  s = load(std::string_view(chunks[0]).substr(0, chunks[0].size() - 5));
  EXPECT_NE(s.message().find("ends early"), std::string::npos) << s.message();
  EXPECT_EQ(QueryOn(e.value(), "scanT"), "") << "a damaged chunk loads nothing";
  EXPECT_TRUE(load(chunks[0]).ok());
  s = load(chunks[0]);
  EXPECT_NE(s.message().find("chunk 0 where chunk 1 was expected"), std::string::npos) << s.message();
  s = load(std::string_view("\x07", 1));
  EXPECT_NE(s.message().find("format 7 is not 1 or 2"), std::string::npos) << s.message();
}

TEST_F(SnapshotStreamTest, LoadTakesANewStreamOnceATableIsEmptyAgain) {
  std::mt19937_64 rng(9);
  for (int i = 0; i < 100; ++i) RandomTransaction(rng, 300);
  const std::string cut_rows = Query("scanT");
  const std::vector<std::string> chunks = StreamUnderLoad(rng, 400, /*quiet=*/true);
  std::unique_ptr<Engine> loaded = Restore(chunks);
  std::swap(loaded, engine_);  // the fixture's statements now run on the engine that loaded the stream
  auto load = [&](std::string_view c) {
    return engine_->LoadSnapshotChunk({reinterpret_cast<const uint8_t*>(c.data()), c.size()});
  };
  bool refused = false;
  for (const std::string& chunk : chunks) refused = refused || !load(chunk).ok();
  EXPECT_TRUE(refused) << "a table that holds rows takes no new stream";
  EXPECT_EQ(Query("scanT"), cut_rows);
  for (int64_t id = 0; id < 300; ++id) ASSERT_TRUE(Run("delete", {Value::BigInt(id)}).ok());
  ASSERT_EQ(RowCount("T"), 0);
  for (const std::string& chunk : chunks) {
    const Status s = load(chunk);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  EXPECT_EQ(Query("scanT"), cut_rows) << "the second stream loaded every row";
}

TEST_F(SnapshotStreamTest, ViewRowsAreLoadedAsStreamedNotRecomputed) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 300; ++i) RandomTransaction(rng, 400);
  const std::string cut_view = testing::SortedLines(Query("scanV"));
  ASSERT_NE(cut_view, "");
  const std::vector<std::string> chunks = StreamUnderLoad(rng, 700, /*quiet=*/true);
  Result<std::unique_ptr<Engine>> e = Engine::Open(catalog_.catalog(), EngineOptions{});
  ASSERT_TRUE(e.ok());
  for (const std::string& c : ChunksOf(chunks, "T")) ASSERT_TRUE(LoadInto(e.value().get(), c).ok());
  EXPECT_EQ(QueryOn(e.value(), "scanV"), "") << "no view maintenance while a stream with views loads";
  for (const std::string& c : ChunksOf(chunks, "V")) ASSERT_TRUE(LoadInto(e.value().get(), c).ok());
  EXPECT_EQ(testing::SortedLines(QueryOn(e.value(), "scanV")), cut_view);
  // The loaded view is maintained by later writes as the original is.
  std::swap(e.value(), engine_);
  ASSERT_TRUE(Run("insert", {Value::BigInt(9001), Value::Varchar("a"), Value::Varchar("n"), Value::Integer(5)}).ok());
  std::swap(e.value(), engine_);
  ASSERT_TRUE(Run("insert", {Value::BigInt(9001), Value::Varchar("a"), Value::Varchar("n"), Value::Integer(5)}).ok());
  EXPECT_EQ(testing::SortedLines(QueryOn(e.value(), "scanV")), testing::SortedLines(Query("scanV")));
}

TEST_F(SnapshotStreamTest, AStreamWithoutViewsStillLoadsAndRebuildsThem) {
  std::mt19937_64 rng(12);
  for (int i = 0; i < 300; ++i) RandomTransaction(rng, 400);
  const std::string cut_rows = Query("scanT");
  const std::string cut_view = testing::SortedLines(Query("scanV"));
  const std::vector<std::string> old = AsFormatWithoutViews(StreamUnderLoad(rng, 700));
  ASSERT_EQ(old[0][0], 1) << "format 1";
  std::unique_ptr<Engine> restored = Restore(old);
  EXPECT_EQ(QueryOn(restored, "scanT"), cut_rows);
  EXPECT_EQ(testing::SortedLines(QueryOn(restored, "scanV")), cut_view) << "rebuilt from T's rows";
}

TEST_F(SnapshotStreamTest, AViewChunkInAFormat1StreamIsRefused) {
  std::mt19937_64 rng(13);
  for (int i = 0; i < 50; ++i) RandomTransaction(rng, 100);
  const std::vector<std::string> chunks = StreamUnderLoad(rng, 1 << 20, /*quiet=*/true);
  std::string view = ChunksOf(chunks, "V").at(0);
  std::string_view rest = view;
  Result<SnapshotChunk> header = SnapshotChunk::Parse(&rest);
  header->format = SnapshotChunk::kFormatWithoutViews;
  std::string old;
  header->AppendTo(&old);
  old.append(rest);
  Result<std::unique_ptr<Engine>> e = Engine::Open(catalog_.catalog(), EngineOptions{});
  const Status s = LoadInto(e.value().get(), old);
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_REQUEST);
  EXPECT_NE(s.message().find("table V: it is a materialized view, and a format 1 stream rebuilds views"),
            std::string::npos)
      << s.message();
}

TEST_F(SnapshotStreamTest, ADamagedViewChunkIsRefusedAndLoadsNothing) {
  std::mt19937_64 rng(14);
  for (int i = 0; i < 300; ++i) RandomTransaction(rng, 400);
  const std::string cut_view = testing::SortedLines(Query("scanV"));
  const std::vector<std::string> view_chunks = ChunksOf(StreamUnderLoad(rng, 1 << 20, /*quiet=*/true), "V");
  ASSERT_EQ(view_chunks.size(), 1u);
  const std::string& good = view_chunks[0];
  Result<std::unique_ptr<Engine>> e = Engine::Open(catalog_.catalog(), EngineOptions{});
  ASSERT_TRUE(e.ok());
  Engine* engine = e.value().get();
  // Cut short in its last row.
  Status s = LoadInto(engine, std::string_view(good).substr(0, good.size() - 3));
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_REQUEST);
  EXPECT_NE(s.message().find("snapshot chunk 0 of table V: the row ends early"), std::string::npos) << s.message();
  EXPECT_EQ(QueryOn(e.value(), "scanV"), "") << "the rows before the damage were taken back";
  // A chunk missing: the header says the view held one row more at the cut than its chunks give.
  std::string_view rest = good;
  Result<SnapshotChunk> header = SnapshotChunk::Parse(&rest);
  ASSERT_TRUE(header.ok());
  SnapshotChunk more = header.value();
  more.cut_rows += 1;
  more.next_row_id += 1;
  std::string short_chunk;
  more.AppendTo(&short_chunk);
  short_chunk.append(rest);
  s = LoadInto(engine, short_chunk);
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_REQUEST);
  EXPECT_NE(s.message().find("table V: " + std::to_string(header->row_count) + " rows loaded by chunk 0, its last, "
                             "where the stream holds " + std::to_string(more.cut_rows)),
            std::string::npos)
      << s.message();
  EXPECT_EQ(QueryOn(e.value(), "scanV"), "");
  // Bytes after the rows.
  s = LoadInto(engine, good + "x");
  EXPECT_NE(s.message().find("1 bytes after its"), std::string::npos) << s.message();
  // The intact chunk still loads whole.
  ASSERT_TRUE(LoadInto(engine, good).ok());
  EXPECT_EQ(testing::SortedLines(QueryOn(e.value(), "scanV")), cut_view);
}

TEST_F(SnapshotStreamTest, HugeCountsInADamagedHeaderAreRefusedWithoutReservingForThem) {
  std::mt19937_64 rng(15);
  for (int i = 0; i < 50; ++i) RandomTransaction(rng, 100);
  const std::string good = ChunksOf(StreamUnderLoad(rng, 1 << 20, /*quiet=*/true), "T").at(0);
  std::string_view rest = good;
  SnapshotChunk header = SnapshotChunk::Parse(&rest).value();
  header.row_count = UINT32_MAX;
  header.cut_rows = (uint64_t{1} << 40) - 1;
  header.next_row_id = uint64_t{1} << 40;
  std::string damaged;
  header.AppendTo(&damaged);
  damaged.append(rest);
  Result<std::unique_ptr<Engine>> e = Engine::Open(catalog_.catalog(), EngineOptions{});
  const Status s = LoadInto(e.value().get(), damaged);
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_REQUEST);
  EXPECT_NE(s.message().find("the row ends early"), std::string::npos) << s.message();
  EXPECT_EQ(QueryOn(e.value(), "scanT"), "");
}

}  // namespace
}  // namespace partita
