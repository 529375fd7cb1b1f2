// ScramClient: the client's side of one SCRAM-SHA-256 login (RFC 5802,
// RFC 7677; docs/wire-protocol.md, "Authentication"): ClientFirst(), then
// ClientFinal() for the server-first message, then VerifyServerFinal().
// The arithmetic (PBKDF2-HMAC-SHA-256, HMAC, SHA-256, base64, random nonces)
// is OpenSSL's libcrypto.
//
// Ownership: one object per login attempt, owned by the connection's session.
// Thread model: confined to the connection's strand.
#ifndef PARTITA_CLIENT_SRC_SCRAM_CLIENT_H_
#define PARTITA_CLIENT_SRC_SCRAM_CLIENT_H_

#include <string>
#include <string_view>

#include "partita/client/status.h"

namespace partita::client {

class ScramClient {
 public:
  // The mechanism's name as LoginRequest.sasl_mechanism carries it.
  static constexpr std::string_view kMechanism = "SCRAM-SHA-256";
  // The least iteration count accepted from a server (RFC 7677).
  static constexpr int kMinIterations = 4096;

  // A login as `user` with `password`, with a fresh random nonce.
  ScramClient(std::string user, std::string password);
  // With a chosen nonce (tests against RFC 7677's example).
  ScramClient(std::string user, std::string password, std::string nonce);

  ScramClient(const ScramClient&) = delete;
  ScramClient& operator=(const ScramClient&) = delete;

  // The client-first message: "n,,n=user,r=nonce".
  std::string ClientFirst();

  // Writes the client-final message answering `server_first` to `*out`.
  // Returns kLoginRefused naming the fault when the server-first message is
  // malformed, its nonce does not extend ours, or it asks for fewer than
  // 4,096 iterations.
  [[nodiscard]] Status ClientFinal(std::string_view server_first, std::string* out);

  // Returns true iff `server_final` carries the signature only a server
  // holding the user's ServerKey can compute.
  bool VerifyServerFinal(std::string_view server_final) const;

 private:
  std::string user_;
  std::string password_;
  std::string nonce_;
  std::string client_first_bare_;
  std::string expected_signature_;  // raw bytes; empty before ClientFinal
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_SRC_SCRAM_CLIENT_H_
