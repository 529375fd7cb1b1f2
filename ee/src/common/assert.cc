#include "common/assert.h"

#include <cstdio>
#include <cstdlib>

namespace partita {

void AssertionFailed(const char* condition, const char* message, const char* file, int line) {
  std::fprintf(stderr, "partita: assertion failed at %s:%d: %s (%s)\n", file, line, message, condition);
  std::abort();
}

}  // namespace partita
