#include "partita/status.h"

#include "errors.pb.h"

namespace partita {

static_assert(error::kOk == proto::ERROR_CODE_OK, "error_code.h is generated from errors.proto");

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string name = proto::ErrorCode_Name(code_);
  constexpr std::string_view kPrefix = "ERROR_CODE_";
  if (name.rfind(kPrefix, 0) == 0) name = name.substr(kPrefix.size());
  return name + ": " + message_;
}

}  // namespace partita
