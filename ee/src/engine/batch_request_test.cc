// Engine::ExecuteSerializedBatch over hand-encoded requests in the format of
// batch_request.h (docs/engine-formats.md).
#include "engine/batch_request.h"

#include <gtest/gtest.h>

#include <cstring>

#include "errors.pb.h"
#include "plan.pb.h"
#include "testing/engine_fixture.h"
#include "testing/request_builder.h"

namespace partita {
namespace {

using Request = testing::RequestBuilder;

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

TEST_F(BatchRequestTest, TimeLimitFollowsTheTimestampWhenFlagBitTwoIsSet) {
  Request r(true, 1, uint32_t{2500}, int64_t{7});
  r.Call(0, 3).BigInt(1).Text("ann").Integer(10);
  BatchRequest decoded;
  ASSERT_TRUE(decoded.Decode(r.bytes()).ok());
  EXPECT_EQ(decoded.options().time_limit_ms, 2500);
  EXPECT_EQ(decoded.options().txn_timestamp, 7);
  ASSERT_TRUE(Execute(r.bytes()).ok());
  EXPECT_EQ(RowCount("ACC"), 1);
}

TEST_F(BatchRequestTest, ZeroOrTruncatedTimeLimitIsABadRequest) {
  Request zero(true, 1, uint32_t{0}, int64_t{0});
  zero.Call(1, 0);
  ExpectRejected(zero.bytes());
  std::vector<uint8_t> truncated = Request(true, 0, uint32_t{5}, int64_t{0}).bytes();
  truncated.resize(1 + 8 + 2);
  ExpectRejected(truncated);
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

TEST_F(BatchRequestTest, AdHocStatementRunsWithParametersAndIsDiscarded) {
  proto::Statement insert;
  *insert.mutable_plan() = catalog_.InsertParams("ACC");
  for (const ValueType t : catalog_.ColumnTypes("ACC")) insert.add_parameter_types(static_cast<proto::ValueType>(t));
  proto::Statement scan;
  *scan.mutable_plan() = catalog_.SeqScan("ACC");
  scan.set_read_only(true);
  Request r(true, 2);
  r.AdHoc(insert, 3).BigInt(5).Text("eve").Integer(50);
  r.AdHoc(scan, 0);
  ASSERT_TRUE(Execute(r.bytes()).ok());
  ASSERT_EQ(results_.table_count(), 2);
  EXPECT_EQ(Table(0).ScalarInt(), 1);
  EXPECT_EQ(Table(1).ToString(), "5|'eve'|50\n");
  EXPECT_EQ(Query("all"), "5|'eve'|50\n");
}

TEST_F(BatchRequestTest, MalformedAdHocBytesAreABadRequestNamingTheOffset) {
  Request r(true, 1);
  r.Put<int32_t>(-1).Put<uint32_t>(3).Raw("\xff\xff\xff").Put<uint16_t>(0);
  Status s = Execute(r.bytes());
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_REQUEST);
  EXPECT_NE(s.message().find("at byte 19"), std::string::npos) << s.message();
  EXPECT_FALSE(engine_->in_transaction());
}

TEST_F(BatchRequestTest, AdHocStatementWithABadPlanIsBadPlanAndRollsBack) {
  proto::Statement bad;
  bad.set_name("adhoc1");
  *bad.mutable_plan() = catalog_.SeqScan("ACC");
  bad.mutable_plan()->mutable_seq_scan()->set_table("NOPE");
  Request r(true, 2);
  r.Call(0, 3).BigInt(1).Text("ann").Integer(10);
  r.AdHoc(bad, 0);
  Status s = Execute(r.bytes());
  EXPECT_EQ(s.code(), proto::ERROR_CODE_BAD_PLAN) << s.ToString();
  EXPECT_NE(s.message().find("adhoc1"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("NOPE"), std::string::npos) << s.message();
  EXPECT_EQ(RowCount("ACC"), 0);
  EXPECT_FALSE(engine_->in_transaction());
}

TEST_F(BatchRequestTest, AdHocCallWithoutItsStatementIsABadRequest) {
  const StatementCall call{kAdHocStatement, {}, nullptr};
  EXPECT_EQ(engine_->ExecuteBatch({&call, 1}, BatchOptions{}, &results_).code(), proto::ERROR_CODE_BAD_REQUEST);
}

// `r`'s bytes with `key` (a Param) as the prefetch key: flags bit 3, the
// key between the timestamp and the call count.
std::vector<uint8_t> WithPrefetchKey(Request r, const std::vector<uint8_t>& key) {
  std::vector<uint8_t> bytes = r.bytes();
  bytes[0] |= 8;
  bytes.insert(bytes.begin() + 1 + 8, key.begin(), key.end());
  return bytes;
}

std::vector<uint8_t> BigIntParam(int64_t v) {
  std::vector<uint8_t> out(1 + 8);
  out[0] = proto::VALUE_TYPE_BIGINT;
  std::memcpy(out.data() + 1, &v, 8);
  return out;
}

TEST_F(BatchRequestTest, PrefetchKeyFollowsTheTimestampWhenFlagBitThreeIsSetAndChangesNoResult) {
  const std::vector<uint8_t> bytes = WithPrefetchKey(InsertAndScan(), BigIntParam(42));
  BatchRequest decoded;
  ASSERT_TRUE(decoded.Decode(bytes).ok());
  EXPECT_EQ(decoded.options().prefetch_key.type(), ValueType::kBigInt);
  EXPECT_EQ(decoded.options().prefetch_key.int_value(), 42);
  ASSERT_EQ(decoded.calls().size(), 2u);
  ASSERT_TRUE(Execute(bytes).ok());
  EXPECT_EQ(Table(1).ToString(), "1|'ann'|10\n");
  // The next request without the bit carries none.
  ASSERT_TRUE(decoded.Decode(InsertAndScan().bytes()).ok());
  EXPECT_TRUE(decoded.options().prefetch_key.is_null());
}

TEST_F(BatchRequestTest, NullTruncatedOrUnknownPrefetchKeyIsABadRequest) {
  ExpectRejected(WithPrefetchKey(InsertAndScan(), {proto::VALUE_TYPE_NULL}));
  ExpectRejected(WithPrefetchKey(InsertAndScan(), {proto::VALUE_TYPE_BOOLEAN, 1}));
  std::vector<uint8_t> truncated = WithPrefetchKey(Request(true, 0), BigIntParam(1));
  truncated.resize(1 + 8 + 5);
  ExpectRejected(truncated);
}

TEST_F(BatchRequestTest, UnknownFlagsAreABadRequest) {
  Request r = InsertAndScan();
  r.bytes()[0] |= 4;
  ExpectRejected(r.bytes());
}

TEST_F(BatchRequestTest, DependencyWhoseLengthDisagreesWithItsTableSizeIsABadRequest) {
  Request r = InsertAndScan();
  const std::vector<uint8_t> table = {9, 0, 0, 0, 0, 0, 0, 0, 0, 0};  // table_size 9, 6 bytes follow
  r.Dependencies(1).Dependency(3, table);
  ExpectRejected(r.bytes());
}

TEST_F(BatchRequestTest, DependencyRunningPastTheEndIsABadRequest) {
  Request r = InsertAndScan();
  r.Dependencies(1).Put<int32_t>(3).Put<uint32_t>(100).Put<uint32_t>(96);
  ExpectRejected(r.bytes());
}

TEST_F(BatchRequestTest, DependencyTablesAreDecodedInOrderPointingIntoTheRequest) {
  ASSERT_TRUE(Run("insert", {Value::BigInt(1), Value::Varchar("a"), Value::Integer(1)}).ok());
  ASSERT_TRUE(Run("all").ok());
  const std::vector<uint8_t> table(results_.table(0).begin(), results_.table(0).end());
  Request r(true, 0);
  r.Dependencies(2).Dependency(4, table).Dependency(-2, table);
  BatchRequest request;
  ASSERT_TRUE(request.Decode(r.bytes()).ok());
  ASSERT_EQ(request.options().dependencies.size(), 2u);
  EXPECT_EQ(request.options().dependencies[0].dependency_id, 4);
  EXPECT_EQ(request.options().dependencies[1].dependency_id, -2);
  EXPECT_EQ(request.options().dependencies[1].table.size(), table.size());
  EXPECT_EQ(request.options().dependencies[1].table.data(), r.bytes().data() + r.bytes().size() - table.size());
}

}  // namespace
}  // namespace partita
