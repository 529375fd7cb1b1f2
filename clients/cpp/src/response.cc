#include "partita/client/response.h"

namespace partita::client {

std::string_view ResponseStatusName(ResponseStatus status) {
  switch (status) {
    case ResponseStatus::kSuccess: return "SUCCESS";
    case ResponseStatus::kUserAbort: return "USER_ABORT";
    case ResponseStatus::kGracefulFailure: return "GRACEFUL_FAILURE";
    case ResponseStatus::kRejected: return "REJECTED";
    case ResponseStatus::kUnexpectedFailure: return "UNEXPECTED_FAILURE";
  }
  return "UNKNOWN";
}

std::string Response::ToString() const {
  std::string text(ResponseStatusName(status));
  if (ok()) return text + " " + std::to_string(results.size()) + " table(s)";
  return text + " " + error_name + ": " + message;
}

}  // namespace partita::client
