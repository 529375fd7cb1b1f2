// Response: the server's answer to one call (proto/client.proto
// InvocationResponse), with its result tables parsed. Every answer of the
// server is a Response, failures included: look at `status`.
//
// Ownership: a value type; its tables share the answer's bytes and layouts
// (ResultTables), which go back to the client's pool when the last copy goes.
// Thread model: not synchronized; immutable once handed to a callback.
#ifndef PARTITA_CLIENT_RESPONSE_H_
#define PARTITA_CLIENT_RESPONSE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "partita/client/result_tables.h"

namespace partita::client {

// What happened to a call: one value for each CallStatus of proto/client.proto.
enum class ResponseStatus {
  kSuccess = 1,            // committed; `results` holds the procedure's tables
  kUserAbort = 2,          // the procedure aborted; everything it wrote was rolled back
  kGracefulFailure = 3,    // a SQL or constraint error rolled the transaction back
  kRejected = 4,           // not run: unknown procedure, bad parameters, shutting down
  kUnexpectedFailure = 5,  // a server error; the transaction was rolled back
};

// "SUCCESS", "USER_ABORT", ...
std::string_view ResponseStatusName(ResponseStatus status);

struct Response {
  ResponseStatus status = ResponseStatus::kUnexpectedFailure;
  // For failures: the error's number in partita.proto.ErrorCode
  // (proto/errors.proto; 0 on success), its name without the ERROR_CODE_
  // prefix (CONSTRAINT_VIOLATION, PROCEDURE_NOT_FOUND, ...) and what went wrong.
  uint32_t error_code = 0;
  std::string error_name;
  std::string message;
  // What the procedure set with setAppStatus (0 and empty when nothing).
  int32_t app_status = 0;
  std::string app_status_message;
  // The procedure's result tables, in order.
  ResultTables results;
  // Nanoseconds the server spent on the call.
  uint64_t server_nanos = 0;
  // The catalog version the call ran against.
  uint64_t catalog_version = 0;
  // Nanoseconds from the call (CallAsync, Call) to its answer, measured by
  // the client with one clock read at each end (steady_clock): what its
  // latency statistics record, so callers need not read the clock themselves.
  int64_t round_trip_nanos = 0;

  bool ok() const { return status == ResponseStatus::kSuccess; }
  // "SUCCESS 1 table(s)" or "GRACEFUL_FAILURE CONSTRAINT_VIOLATION: ...".
  std::string ToString() const;
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_RESPONSE_H_
