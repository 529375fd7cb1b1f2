// Engine::ExecuteSerializedBatch over hand-encoded requests in the format of
// batch_request.h (docs/engine-formats.md).
#include "engine/batch_request.h"

#include <gtest/gtest.h>

#include "testing/engine_fixture.h"

namespace partita {
namespace {

// Little-endian request builder.
class Request {
 public:
  Request(bool final_batch, uint16_t calls, int64_t txn_timestamp = 0) {
    Put<uint8_t>(final_batch ? 1 : 0);
    Put(txn_timestamp);
    Put(calls);
  }
  Request& Call(int32_t statement, uint16_t params) { return Put(statement).Put(params); }
  Request& Null() { return Put<uint8_t>(proto::VALUE_TYPE_NULL); }
  Request& TinyInt(int8_t v) { return Put<uint8_t>(proto::VALUE_TYPE_TINYINT).Put(v); }
  Request& Integer(int32_t v) { return Put<uint8_t>(proto::VALUE_TYPE_INTEGER).Put(v); }
  Request& BigInt(int64_t v) { return Put<uint8_t>(proto::VALUE_TYPE_BIGINT).Put(v); }
  Request& Decimal(int128 v) { return Put<uint8_t>(proto::VALUE_TYPE_DECIMAL).Put(v); }
  Request& Text(std::string_view s) {
    Put<uint8_t>(proto::VALUE_TYPE_VARCHAR).Put(static_cast<uint32_t>(s.size()));
    bytes_.insert(bytes_.end(), s.begin(), s.end());
    return *this;
  }
  template <typename T>
  Request& Put(T v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    bytes_.insert(bytes_.end(), p, p + sizeof v);
    return *this;
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

// ACC(ID BIGINT PK, NAME VARCHAR(10), BAL INTEGER): statement 0 inserts,
// 1 scans.
class BatchRequestTest : public testing::EngineFixture {
 protected:
  void SetUp() override {
    catalog_.Table("ACC")
        .Column("ID", ValueType::kBigInt, 0, false)
        .Column("NAME", ValueType::kVarchar, 10)
        .Column("BAL", ValueType::kInteger)
        .Index("PK_ACC", {0}, proto::INDEX_KIND_HASH, true, true);
    catalog_.Statement("insert", catalog_.InsertParams("ACC"), catalog_.ColumnTypes("ACC"));
    catalog_.Statement("all", catalog_.SeqScan("ACC"), {});
    Open();
  }

  Status Execute(const std::vector<uint8_t>& bytes) { return engine_->ExecuteSerializedBatch(bytes, &results_); }

  // A valid final request: insert (1, 'ann', 10), then scan.
  static Request InsertAndScan() {
    Request r(true, 2);
    r.Call(0, 3).BigInt(1).Text("ann").Integer(10);
    r.Call(1, 0);
    return r;
  }

  // Expects BAD_REQUEST with nothing written and no transaction left open.
  void ExpectRejected(const std::vector<uint8_t>& bytes) {
    Status s = Execute(bytes);
    EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_REQUEST) << s.ToString();
    EXPECT_NE(s.message().find("at byte"), std::string::npos) << s.message();
    EXPECT_EQ(results_.table_count(), 0);
    EXPECT_EQ(RowCount("ACC"), 0);
    EXPECT_FALSE(engine_->in_transaction());
  }
};

TEST_F(BatchRequestTest, HandEncodedRequestRunsEveryCallAndCommits) {
  ASSERT_TRUE(Execute(InsertAndScan().bytes()).ok());
  ASSERT_EQ(results_.table_count(), 2);
  EXPECT_EQ(Table(0).ScalarInt(), 1);
  EXPECT_EQ(Table(1).ToString(), "1|'ann'|10\n");
  EXPECT_FALSE(engine_->in_transaction());
  engine_->Rollback();
  EXPECT_EQ(RowCount("ACC"), 1);
}

TEST_F(BatchRequestTest, ParametersWidenToDeclaredTypesAndMayBeNull) {
  Request r(true, 1);
  r.Call(0, 3).Integer(7).Null().TinyInt(-3);
  ASSERT_TRUE(Execute(r.bytes()).ok());
  EXPECT_EQ(Query("all"), "7|NULL|-3\n");
}

TEST_F(BatchRequestTest, NonFinalBatchLeavesTheTransactionOpen) {
  Request r(false, 1);
  r.Call(0, 3).BigInt(1).Text("ann").Integer(10);
  ASSERT_TRUE(Execute(r.bytes()).ok());
  EXPECT_TRUE(engine_->in_transaction());
  EXPECT_EQ(RowCount("ACC"), 1);
  engine_->Rollback();
  EXPECT_EQ(RowCount("ACC"), 0);
}

TEST_F(BatchRequestTest, EveryTruncationIsABadRequest) {
  const std::vector<uint8_t> good = InsertAndScan().bytes();
  for (size_t n = 0; n < good.size(); ++n) {
    SCOPED_TRACE("prefix of " + std::to_string(n) + " bytes");
    ExpectRejected({good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)});
  }
}

TEST_F(BatchRequestTest, UnknownOrNonParameterTypeByteIsABadRequest) {
  for (const uint8_t type : {0, 11, 12, 255}) {
    SCOPED_TRACE("type " + std::to_string(type));
    Request r(true, 1);
    r.Call(0, 3).BigInt(1).Put<uint8_t>(type).Put<int64_t>(0).Integer(10);
    ExpectRejected(r.bytes());
  }
}

TEST_F(BatchRequestTest, TrailingBytesAreABadRequest) {
  Request r = InsertAndScan();
  r.Put<uint8_t>(0);
  ExpectRejected(r.bytes());
}

TEST_F(BatchRequestTest, StringLengthPastTheEndIsABadRequest) {
  Request r(true, 1);
  r.Call(0, 3).BigInt(1).Put<uint8_t>(proto::VALUE_TYPE_VARCHAR).Put<uint32_t>(0xFFFFFFFF).Put<uint32_t>(0);
  ExpectRejected(r.bytes());
}

TEST_F(BatchRequestTest, DecimalBeyondThirtyEightDigitsIsABadRequest) {
  Request r(true, 1);
  r.Call(0, 3).BigInt(1).Null().Decimal(kDecimalMaxUnscaled + 1);
  ExpectRejected(r.bytes());
}

TEST_F(BatchRequestTest, MalformedRequestRollsBackTheOpenTransaction) {
  Request open(false, 1);
  open.Call(0, 3).BigInt(1).Text("ann").Integer(10);
  ASSERT_TRUE(Execute(open.bytes()).ok());
  ASSERT_EQ(RowCount("ACC"), 1);
  Request bad = InsertAndScan();
  bad.Put<uint8_t>(1);
  ExpectRejected(bad.bytes());
}

TEST_F(BatchRequestTest, UnknownStatementIdDecodesButIsNotFound) {
  Request r(true, 1);
  r.Call(42, 0);
  EXPECT_EQ(Execute(r.bytes()).code(), proto::ERROR_CODE_NOT_FOUND);
  EXPECT_FALSE(engine_->in_transaction());
}

TEST_F(BatchRequestTest, DecodeReusesItsBuffersAcrossRequests) {
  BatchRequest request;
  const Request first = InsertAndScan();  // string parameters point into it
  ASSERT_TRUE(request.Decode(first.bytes()).ok());
  ASSERT_EQ(request.calls().size(), 2u);
  EXPECT_EQ(request.calls()[0].parameters.size(), 3u);
  EXPECT_EQ(request.calls()[0].parameters[1].string_value(), "ann");
  Request small(false, 1, 77);
  small.Call(1, 0);
  ASSERT_TRUE(request.Decode(small.bytes()).ok());
  ASSERT_EQ(request.calls().size(), 1u);
  EXPECT_TRUE(request.calls()[0].parameters.empty());
  EXPECT_FALSE(request.options().final_batch);
  EXPECT_EQ(request.options().txn_timestamp, 77);
}

}  // namespace
}  // namespace partita
