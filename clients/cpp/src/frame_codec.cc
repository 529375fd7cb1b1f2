#include "frame_codec.h"

#include <cstring>

#include "client.pb.h"

namespace partita::client {
namespace {

// Wire types and field tags of proto/client.proto (field << 3 | wire type).
constexpr uint8_t kVarint = 0, kFixed64 = 1, kLengthDelimited = 2;
constexpr uint8_t Tag(int field, uint8_t wire_type) { return static_cast<uint8_t>(field << 3 | wire_type); }
constexpr uint8_t kMessageInvocation = Tag(2, kLengthDelimited);
constexpr uint8_t kInvocationHandle = Tag(1, kVarint);
constexpr uint8_t kInvocationProcedure = Tag(2, kLengthDelimited);
constexpr uint8_t kInvocationParameter = Tag(3, kLengthDelimited);
constexpr uint8_t kInvocationRouted = Tag(4, kVarint);
constexpr uint8_t kInvocationTimeout = Tag(5, kVarint);
constexpr uint8_t kParamInteger = Tag(1, kVarint);
constexpr uint8_t kParamFloat = Tag(2, kFixed64);
constexpr uint8_t kParamDecimal = Tag(3, kLengthDelimited);
constexpr uint8_t kParamText = Tag(4, kLengthDelimited);
constexpr uint8_t kParamBinary = Tag(5, kLengthDelimited);
constexpr uint8_t kParamTimestamp = Tag(6, kVarint);

size_t VarintSize(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

uint64_t ZigZag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }

void PutVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

void PutBytesField(uint8_t tag, std::string_view bytes, std::string* out) {
  out->push_back(static_cast<char>(tag));
  PutVarint(bytes.size(), out);
  out->append(bytes);
}

size_t BytesFieldSize(std::string_view bytes) { return 1 + VarintSize(bytes.size()) + bytes.size(); }

// The size of one Parameter message (without its tag and length).
size_t ParamSize(const Param& p) {
  struct Sizer {
    size_t operator()(std::monostate) const { return 0; }
    size_t operator()(int64_t v) const { return 1 + VarintSize(ZigZag(v)); }
    size_t operator()(double) const { return 1 + sizeof(double); }
    size_t operator()(const Param::DecimalText& d) const { return BytesFieldSize(d.text); }
    size_t operator()(const std::string& s) const { return BytesFieldSize(s); }
    size_t operator()(const Param::Binary& b) const { return BytesFieldSize(b.bytes); }
    size_t operator()(Param::TimestampMicros t) const { return 1 + VarintSize(ZigZag(t.micros)); }
  };
  return std::visit(Sizer{}, p.value());
}

void PutParam(const Param& p, std::string* out) {
  struct Writer {
    std::string* out;
    void operator()(std::monostate) const {}
    void operator()(int64_t v) const {
      out->push_back(static_cast<char>(kParamInteger));
      PutVarint(ZigZag(v), out);
    }
    void operator()(double v) const {
      out->push_back(static_cast<char>(kParamFloat));
      char bytes[sizeof v];
      std::memcpy(bytes, &v, sizeof v);  // fixed64 is little-endian, as is every target
      out->append(bytes, sizeof v);
    }
    void operator()(const Param::DecimalText& d) const { PutBytesField(kParamDecimal, d.text, out); }
    void operator()(const std::string& s) const { PutBytesField(kParamText, s, out); }
    void operator()(const Param::Binary& b) const { PutBytesField(kParamBinary, b.bytes, out); }
    void operator()(Param::TimestampMicros t) const {
      out->push_back(static_cast<char>(kParamTimestamp));
      PutVarint(ZigZag(t.micros), out);
    }
  };
  std::visit(Writer{out}, p.value());
}

size_t InvocationSize(uint64_t handle, std::string_view procedure, const std::vector<Param>& params,
                      uint32_t routed_plus_one, uint32_t timeout_millis) {
  size_t n = 0;
  if (handle != 0) n += 1 + VarintSize(handle);
  if (!procedure.empty()) n += BytesFieldSize(procedure);
  for (const Param& p : params) {
    const size_t size = ParamSize(p);
    n += 1 + VarintSize(size) + size;
  }
  if (routed_plus_one != 0) n += 1 + VarintSize(routed_plus_one);
  if (timeout_millis != 0) n += 1 + VarintSize(timeout_millis);
  return n;
}

void PutLength(uint32_t length, std::string* out) {
  const char bytes[4] = {static_cast<char>(length >> 24), static_cast<char>(length >> 16),
                         static_cast<char>(length >> 8), static_cast<char>(length)};
  out->append(bytes, 4);
}

}  // namespace

size_t FrameCodec::InvocationMessageSize(uint64_t handle, std::string_view procedure,
                                         const std::vector<Param>& params, uint32_t routed_plus_one,
                                         uint32_t timeout_millis) {
  const size_t invocation = InvocationSize(handle, procedure, params, routed_plus_one, timeout_millis);
  return 1 + VarintSize(invocation) + invocation;
}

void FrameCodec::AppendInvocationFrame(uint64_t handle, std::string_view procedure,
                                       const std::vector<Param>& params, uint32_t routed_plus_one,
                                       uint32_t timeout_millis, std::string* out) {
  const size_t invocation = InvocationSize(handle, procedure, params, routed_plus_one, timeout_millis);
  const size_t message = 1 + VarintSize(invocation) + invocation;
  out->reserve(out->size() + kLengthPrefixBytes + message);
  PutLength(static_cast<uint32_t>(message), out);
  out->push_back(static_cast<char>(kMessageInvocation));
  PutVarint(invocation, out);
  if (handle != 0) {
    out->push_back(static_cast<char>(kInvocationHandle));
    PutVarint(handle, out);
  }
  if (!procedure.empty()) PutBytesField(kInvocationProcedure, procedure, out);
  for (const Param& p : params) {
    out->push_back(static_cast<char>(kInvocationParameter));
    PutVarint(ParamSize(p), out);
    PutParam(p, out);
  }
  if (routed_plus_one != 0) {
    out->push_back(static_cast<char>(kInvocationRouted));
    PutVarint(routed_plus_one, out);
  }
  if (timeout_millis != 0) {
    out->push_back(static_cast<char>(kInvocationTimeout));
    PutVarint(timeout_millis, out);
  }
}

std::string FrameCodec::LoginFrame(std::string_view client_name) { return LoginFrame(client_name, "", ""); }

std::string FrameCodec::LoginFrame(std::string_view client_name, std::string_view mechanism, std::string_view data,
                                   uint64_t session) {
  ClientMessage message;
  LoginRequest* login = message.mutable_login();
  login->set_protocol_version(PROTOCOL_VERSION_1);
  login->set_client_name(std::string(client_name));
  login->set_client_session(session);
  login->set_accepts_topology_push(true);
  if (!mechanism.empty()) {
    login->set_sasl_mechanism(std::string(mechanism));
    login->set_sasl_data(std::string(data));
  }
  std::string frame;
  PutLength(static_cast<uint32_t>(message.ByteSizeLong()), &frame);
  message.AppendToString(&frame);
  return frame;
}

std::string FrameCodec::LoginContinueFrame(std::string_view data) {
  ClientMessage message;
  message.mutable_login_continue()->set_sasl_data(std::string(data));
  std::string frame;
  PutLength(static_cast<uint32_t>(message.ByteSizeLong()), &frame);
  message.AppendToString(&frame);
  return frame;
}

uint32_t FrameCodec::ReadLength(const char* p) {
  const auto* b = reinterpret_cast<const uint8_t*>(p);
  return static_cast<uint32_t>(b[0]) << 24 | static_cast<uint32_t>(b[1]) << 16 |
         static_cast<uint32_t>(b[2]) << 8 | b[3];
}

std::optional<std::string_view> FrameCodec::ResponseBody(std::string_view message) {
  // ServerMessage.response: field 2, wire type 2 (length-delimited).
  constexpr uint8_t kResponseTag = (2 << 3) | 2;
  if (message.empty() || static_cast<uint8_t>(message[0]) != kResponseTag) return std::nullopt;
  uint64_t length = 0;
  size_t at = 1;
  for (int shift = 0; shift < 64; shift += 7) {
    if (at >= message.size()) return std::nullopt;
    const uint8_t byte = static_cast<uint8_t>(message[at++]);
    length |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      if (length != message.size() - at) return std::nullopt;  // more fields follow, or too few bytes
      return message.substr(at);
    }
  }
  return std::nullopt;
}

}  // namespace partita::client
