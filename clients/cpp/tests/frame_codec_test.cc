// The hand-written invocation encoder against the generated protobuf code.
#include "frame_codec.h"

#include <gtest/gtest.h>

#include <limits>

#include "client.pb.h"

namespace partita::client {
namespace {

// What the generated code writes for the same call, length prefix included.
std::string GeneratedFrame(uint64_t handle, const std::string& procedure, const std::vector<Param>& params,
                           uint32_t routed, uint32_t timeout_millis = 0) {
  ClientMessage m;
  Invocation* inv = m.mutable_invocation();
  inv->set_client_handle(handle);
  inv->set_procedure(procedure);
  inv->set_routed_partition_plus_one(routed);
  inv->set_timeout_millis(timeout_millis);
  for (const Param& p : params) {
    Parameter* out = inv->add_parameters();
    const Param::Value& v = p.value();
    if (auto* i = std::get_if<int64_t>(&v)) out->set_integer(*i);
    if (auto* d = std::get_if<double>(&v)) out->set_float_value(*d);
    if (auto* d = std::get_if<Param::DecimalText>(&v)) out->set_decimal(d->text);
    if (auto* s = std::get_if<std::string>(&v)) out->set_text(*s);
    if (auto* b = std::get_if<Param::Binary>(&v)) out->set_binary(b->bytes);
    if (auto* t = std::get_if<Param::TimestampMicros>(&v)) out->set_timestamp_micros(t->micros);
  }
  const std::string body = m.SerializeAsString();
  const uint32_t n = static_cast<uint32_t>(body.size());
  const char prefix[4] = {static_cast<char>(n >> 24), static_cast<char>(n >> 16), static_cast<char>(n >> 8),
                          static_cast<char>(n)};
  return std::string(prefix, 4) + body;
}

void ExpectSameAsGenerated(uint64_t handle, const std::string& procedure, const std::vector<Param>& params,
                           uint32_t routed, uint32_t timeout_millis = 0) {
  std::string mine;
  FrameCodec::AppendInvocationFrame(handle, procedure, params, routed, timeout_millis, &mine);
  EXPECT_EQ(mine, GeneratedFrame(handle, procedure, params, routed, timeout_millis));
  EXPECT_EQ(mine.size(), 4 + FrameCodec::InvocationMessageSize(handle, procedure, params, routed, timeout_millis));
}

TEST(FrameCodecTest, EncodesVoteLikeTheGeneratedCode) {
  ExpectSameAsGenerated(1, "Vote", {6175551234LL, 3, 2}, 2);
}

TEST(FrameCodecTest, EncodesEveryParameterKindLikeTheGeneratedCode) {
  ExpectSameAsGenerated(std::numeric_limits<uint64_t>::max(), "Everything",
                        {nullptr, -1, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), 0.0,
                         -2.5, Param::Decimal("-12.50"), "", "ünïcödé", Param::Bytes(std::string("\0\xff", 2)),
                         Param::Timestamp(-1), Param::Timestamp(1'700'000'000'000'000LL)},
                        0);
}

TEST(FrameCodecTest, EncodesLargeValuesWithMultiByteLengths) {
  ExpectSameAsGenerated(300, std::string(200, 'P'), {std::string(70'000, 'x'), Param::Bytes(std::string(129, 'b'))},
                        1'000'000);
}

TEST(FrameCodecTest, EncodesTheCallsTimeLimitLikeTheGeneratedCode) {
  ExpectSameAsGenerated(9, "@AdHoc", {"SELECT 1"}, 2, 2500);
  ExpectSameAsGenerated(10, "P", {}, 0, 3'600'000);
}

TEST(FrameCodecTest, AppendsFramesOneAfterAnother) {
  std::string out;
  FrameCodec::AppendInvocationFrame(1, "A", {}, 0, 0, &out);
  FrameCodec::AppendInvocationFrame(2, "B", {7}, 0, 0, &out);
  EXPECT_EQ(out, GeneratedFrame(1, "A", {}, 0) + GeneratedFrame(2, "B", {7}, 0));
}

TEST(FrameCodecTest, LoginFrameCarriesProtocolVersionOneAndTheClientName) {
  const std::string frame = FrameCodec::LoginFrame("voter");
  ASSERT_GE(frame.size(), 4u);
  EXPECT_EQ(FrameCodec::ReadLength(frame.data()), frame.size() - 4);
  ClientMessage m;
  ASSERT_TRUE(m.ParseFromArray(frame.data() + 4, static_cast<int>(frame.size() - 4)));
  ASSERT_TRUE(m.has_login());
  EXPECT_EQ(m.login().protocol_version(), 1u);
  EXPECT_EQ(m.login().client_name(), "voter");
}

}  // namespace
}  // namespace partita::client
