#include "partita/client/status.h"

namespace partita::client {

std::string_view Status::CodeName(Code code) {
  switch (code) {
    case Code::kOk: return "OK";
    case Code::kInvalidArgument: return "INVALID_ARGUMENT";
    case Code::kNoConnection: return "NO_CONNECTION";
    case Code::kConnectionLost: return "CONNECTION_LOST";
    case Code::kTimeout: return "TIMEOUT";
    case Code::kBackpressure: return "BACKPRESSURE";
    case Code::kFrameTooLarge: return "FRAME_TOO_LARGE";
    case Code::kLoginRefused: return "LOGIN_REFUSED";
    case Code::kIoError: return "IO_ERROR";
    case Code::kMalformed: return "MALFORMED";
    case Code::kClosed: return "CLOSED";
  }
  return "UNKNOWN";
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string text(CodeName(code_));
  text += ": ";
  text += message_;
  return text;
}

}  // namespace partita::client
