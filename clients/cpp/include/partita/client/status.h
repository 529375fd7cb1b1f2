// Status: the outcome of a client operation that can fail on the client's
// side (no connection, timeout, backpressure, a malformed answer, ...). The
// server's own verdict on a call (SUCCESS, USER_ABORT, ...) is not a Status:
// it is the ResponseStatus of the Response the call returned.
//
// Ownership: a value type. Thread model: immutable once made; safe to share.
#ifndef PARTITA_CLIENT_STATUS_H_
#define PARTITA_CLIENT_STATUS_H_

#include <string>
#include <string_view>

namespace partita::client {

class Status {
 public:
  enum class Code {
    kOk = 0,
    kInvalidArgument,  // a malformed address, an empty procedure name, ...
    kNoConnection,     // no connection is up; the call was not sent
    kConnectionLost,   // the connection went down with the call queued or in flight
    kTimeout,          // no answer within the call (or connect) timeout
    kBackpressure,     // no room among the in-flight calls within the backpressure timeout
    kFrameTooLarge,    // the call encodes to more bytes than the server accepts
    kLoginRefused,     // the server refused the login (its message says why)
    kIoError,          // the server could not be reached
    kMalformed,        // the server sent bytes that do not decode (e.g. a bad result table)
    kClosed,           // the client is closed
  };

  // An OK status.
  Status() = default;
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

  // "OK", or the code's name, ": ", and the message.
  std::string ToString() const;

  // The code's name in upper case, e.g. "CONNECTION_LOST".
  static std::string_view CodeName(Code code);

 private:
  Code code_ = Code::kOk;
  std::string message_;
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_STATUS_H_
