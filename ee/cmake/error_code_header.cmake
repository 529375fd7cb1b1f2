# partita_write_error_code_header(<errors.proto> <output header>): writes the
# public header partita/error_code.h from proto/errors.proto, the single
# source of error codes, so that the installed headers name every code
# without the generated protobuf headers. ERROR_CODE_CONSTRAINT_VIOLATION = 2
# becomes partita::error::kConstraintViolation. The header is rewritten
# whenever errors.proto changes (it is a configure dependency).
function(partita_write_error_code_header proto output)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${proto})
  file(STRINGS ${proto} lines REGEX "^[ \t]*ERROR_CODE_[A-Z0-9_]+[ \t]*=[ \t]*[0-9]+;")
  set(constants "")
  foreach(line ${lines})
    string(REGEX REPLACE "^[ \t]*ERROR_CODE_([A-Z0-9_]+)[ \t]*=[ \t]*([0-9]+);.*" "\\1;\\2" parts "${line}")
    list(GET parts 0 upper)
    list(GET parts 1 number)
    string(TOLOWER ${upper} lower)
    string(REPLACE "_" ";" words ${lower})
    set(camel "")
    foreach(word ${words})
      string(SUBSTRING ${word} 0 1 first)
      string(SUBSTRING ${word} 1 -1 rest)
      string(TOUPPER ${first} first)
      string(APPEND camel ${first}${rest})
    endforeach()
    string(APPEND constants "inline constexpr ErrorCode k${camel} = static_cast<ErrorCode>(${number});  // ERROR_CODE_${upper}\n")
  endforeach()
  file(CONFIGURE OUTPUT ${output} CONTENT [=[
// ErrorCode: the error codes of proto/errors.proto (the single source shared
// with Java and every client), generated from it by the build
// (ee/cmake/error_code_header.cmake) so that the public headers need no
// generated protobuf header. Each constant's comment names its proto value;
// errors.proto documents what each means.
//
// partita::ErrorCode is the protobuf enum partita::proto::ErrorCode, declared
// here opaquely (protobuf gives generated enums the underlying type int), so
// engine code may use either spelling.
#ifndef PARTITA_ERROR_CODE_H_
#define PARTITA_ERROR_CODE_H_

namespace partita {
namespace proto {
enum ErrorCode : int;
}  // namespace proto

using ErrorCode = proto::ErrorCode;

namespace error {
@constants@}  // namespace error
}  // namespace partita

#endif  // PARTITA_ERROR_CODE_H_
]=] @ONLY)
endfunction()
