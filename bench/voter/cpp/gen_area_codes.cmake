# Generates the C++ table of area codes and states from the Java one, so that
# there is one list to keep (bench/voter/procedures/.../AreaCodes.java).
#   cmake -DJAVA_FILE=AreaCodes.java -DOUT=area_codes.cc -P gen_area_codes.cmake
# Fails when either array is missing, empty, or the two differ in length.
file(READ "${JAVA_FILE}" text)
string(REGEX MATCH "int\\[\\] CODES = {([^}]*)}" found "${text}")
if(NOT found)
  message(FATAL_ERROR "${JAVA_FILE}: no 'int[] CODES = {...}' array")
endif()
string(REGEX MATCHALL "[0-9]+" codes "${CMAKE_MATCH_1}")
string(REGEX MATCH "String\\[\\] STATES = {([^}]*)}" found "${text}")
if(NOT found)
  message(FATAL_ERROR "${JAVA_FILE}: no 'String[] STATES = {...}' array")
endif()
string(REGEX MATCHALL "\"[A-Z][A-Z]\"" states "${CMAKE_MATCH_1}")
list(LENGTH codes code_count)
list(LENGTH states state_count)
if(code_count EQUAL 0 OR NOT code_count EQUAL state_count)
  message(FATAL_ERROR "${JAVA_FILE}: ${code_count} codes but ${state_count} states")
endif()
list(JOIN codes ", " code_list)
list(JOIN states ", " state_list)
file(WRITE "${OUT}.tmp" "// Generated from ${JAVA_FILE} by gen_area_codes.cmake; do not edit.
#include \"area_codes.h\"

namespace partita::bench::voter {

const int kAreaCodes[] = {${code_list}};
const char* const kAreaStates[] = {${state_list}};
const size_t kAreaCodeCount = ${code_count};

}  // namespace partita::bench::voter
")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
