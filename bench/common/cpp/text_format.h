// Text formatting of the drivers' reports, in the manner of Java's
// String.format, which the Java drivers use, so that both print alike:
// Grouped(1234567) is "1,234,567" (%,d), GroupedFixed(1234.5, 0) is
// "1,235" (%,.0f), Fixed(0.1234, 3) is "0.123" (%.3f), and the Pad
// functions widen to a column (%10s, %-8s).
//
// Thread model: stateless functions; safe from any thread.
#ifndef PARTITA_BENCH_COMMON_TEXT_FORMAT_H_
#define PARTITA_BENCH_COMMON_TEXT_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace partita::bench {

// `value` with a comma every three digits.
std::string Grouped(int64_t value);
// `value` rounded to `decimals` places (half up, as Java), digits grouped by three.
std::string GroupedFixed(double value, int decimals);
// `value` rounded to `decimals` places.
std::string Fixed(double value, int decimals);
// The shortest text that reads back as `value` ("30", "0.9", "1e-05").
std::string Shortest(double value);
// `text` padded with spaces on the left (PadLeft) or right (PadRight) to `width`.
std::string PadLeft(std::string_view text, size_t width);
std::string PadRight(std::string_view text, size_t width);

}  // namespace partita::bench

#endif  // PARTITA_BENCH_COMMON_TEXT_FORMAT_H_
