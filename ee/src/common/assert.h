// PARTITA_ASSERT: programmer errors only, never user input (STYLE rule 11).
// Active in every build: a broken invariant in a database must stop the
// process rather than corrupt data. Each assert carries a message.
#ifndef PARTITA_COMMON_ASSERT_H_
#define PARTITA_COMMON_ASSERT_H_

namespace partita {
[[noreturn]] void AssertionFailed(const char* condition, const char* message, const char* file, int line);
}  // namespace partita

#define PARTITA_ASSERT(cond, msg) \
  ((cond) ? (void)0 : ::partita::AssertionFailed(#cond, msg, __FILE__, __LINE__))

#endif  // PARTITA_COMMON_ASSERT_H_
