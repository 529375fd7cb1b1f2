// FrameCodec: the bytes of client frames (docs/wire-protocol.md): a 4-byte
// big-endian length, then one ClientMessage. Invocations, the hot path, are
// encoded by hand straight into the connection's write buffer, byte for
// byte what the generated protobuf code would write (frame_codec_test.cc
// checks it); the login, once per connection, uses the generated code.
//
// Thread model: stateless functions; safe from any thread.
#ifndef PARTITA_CLIENT_SRC_FRAME_CODEC_H_
#define PARTITA_CLIENT_SRC_FRAME_CODEC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "partita/client/param.h"

namespace partita::client {

class FrameCodec final {
 public:
  static constexpr size_t kLengthPrefixBytes = 4;

  // The size of the ClientMessage holding this invocation (prefix excluded).
  // `timeout_millis` is the time limit the call asks the server for (0 = the
  // server's default).
  static size_t InvocationMessageSize(uint64_t handle, std::string_view procedure,
                                      const std::vector<Param>& params, uint32_t routed_plus_one,
                                      uint32_t timeout_millis);

  // Appends the whole frame (prefix and message) to `out`.
  static void AppendInvocationFrame(uint64_t handle, std::string_view procedure,
                                    const std::vector<Param>& params, uint32_t routed_plus_one,
                                    uint32_t timeout_millis, std::string* out);

  // The login frame: LoginRequest{protocol_version 1, client_name}.
  static std::string LoginFrame(std::string_view client_name);

  // A login frame starting a SASL exchange: LoginRequest{protocol_version 1,
  // client_name, sasl_mechanism, sasl_data}.
  // `session`: the client session (LoginRequest.client_session; 0: none).
  static std::string LoginFrame(std::string_view client_name, std::string_view mechanism, std::string_view data,
                                uint64_t session = 0);

  // The second step of a SCRAM login: ClientMessage{login_continue{sasl_data}}.
  static std::string LoginContinueFrame(std::string_view data);

  // When the ServerMessage in `message` is one `response` field and nothing
  // else (what the server sends for every answer), returns the bytes of its
  // InvocationResponse, to be parsed into a message the connection reuses
  // (a oneof member is allocated anew on every parse); otherwise nullopt,
  // and the caller parses the whole ServerMessage.
  static std::optional<std::string_view> ResponseBody(std::string_view message);

  // Reads a length prefix. REQUIRES: 4 readable bytes at `p`.
  static uint32_t ReadLength(const char* p);
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_SRC_FRAME_CODEC_H_
