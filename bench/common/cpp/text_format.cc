#include "text_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace partita::bench {
namespace {

// Inserts a comma every three digits into the integer part of `digits`
// (an optional '-', digits, an optional fraction).
std::string GroupDigits(const std::string& digits) {
  const size_t start = digits[0] == '-' ? 1 : 0;
  size_t end = digits.find('.');
  if (end == std::string::npos) end = digits.size();
  std::string out = digits.substr(0, start);
  for (size_t i = start; i < end; ++i) {
    if (i > start && (end - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out + digits.substr(end);
}

}  // namespace

std::string Grouped(int64_t value) { return GroupDigits(std::to_string(value)); }

std::string GroupedFixed(double value, int decimals) { return GroupDigits(Fixed(value, decimals)); }

std::string Fixed(double value, int decimals) {
  // Java rounds half up; printf rounds half to even on the binary value. Nudge
  // exact halves away from zero so that 0.5 -> "1" as in Java.
  const double scale = std::pow(10.0, decimals);
  const double scaled = value * scale;
  double rounded = std::round(scaled) / scale;
  if (!std::isfinite(rounded)) rounded = value;
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, rounded);
  std::string text = buffer;
  if (text.starts_with("-") && text.find_first_not_of("-0.") == std::string::npos) {
    text.erase(0, 1);
  }
  return text;
}

std::string Shortest(double value) {
  char buffer[64];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return error == std::errc() ? std::string(buffer, end) : "0";
}

std::string PadLeft(std::string_view text, size_t width) {
  return text.size() >= width ? std::string(text) : std::string(width - text.size(), ' ') + std::string(text);
}

std::string PadRight(std::string_view text, size_t width) {
  return text.size() >= width ? std::string(text) : std::string(text) + std::string(width - text.size(), ' ');
}

}  // namespace partita::bench
