#include "key_space.h"

#include <limits>

namespace partita::bench::kv {

std::string KeySpace::Check(int64_t count, int64_t width) {
  if (count < 1) return "--preload must be at least 1 key, got " + std::to_string(count);
  if (count > std::numeric_limits<int32_t>::max()) {
    return "--preload must be at most " + std::to_string(std::numeric_limits<int32_t>::max()) + " keys, got " +
           std::to_string(count);
  }
  const int64_t needed = 1 + static_cast<int64_t>(std::to_string(count - 1).size());
  if (width < needed || width > kMaxWidth) {
    return "--key-size must be between " + std::to_string(needed) + " (\"k\" and the digits of " +
           std::to_string(count - 1) + ") and " + std::to_string(kMaxWidth) + " (the width of store.key), got " +
           std::to_string(width);
  }
  return "";
}

std::string KeySpace::Key(int index) const {
  std::string key(static_cast<size_t>(width_), '0');
  key[0] = 'k';
  int rest = index;
  for (int at = width_ - 1; rest > 0; --at) {
    key[static_cast<size_t>(at)] = static_cast<char>('0' + rest % 10);
    rest /= 10;
  }
  return key;
}

}  // namespace partita::bench::kv
