// UTF-8 helpers for VARCHAR lengths and character positions. Invalid bytes
// count as one character each, so lengths never fail.
#ifndef PARTITA_TYPES_UTF8_H_
#define PARTITA_TYPES_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace partita::utf8 {

inline bool IsContinuation(char c) { return (static_cast<uint8_t>(c) & 0xC0) == 0x80; }

// Number of characters (code points) in `s`.
inline size_t CharCount(std::string_view s) {
  size_t n = 0;
  for (const char c : s) n += !IsContinuation(c);
  return n;
}

// Byte offset of character `index` (0-based); s.size() when past the end.
inline size_t ByteOffset(std::string_view s, size_t index) {
  size_t chars = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (IsContinuation(s[i])) continue;
    if (chars++ == index) return i;
  }
  return s.size();
}

}  // namespace partita::utf8

#endif  // PARTITA_TYPES_UTF8_H_
