// TIMESTAMP helpers: microseconds since 1970-01-01 00:00:00 UTC to and from
// civil time and text ("2026-11-22 13:45:00.123456"). The range is years
// 0001 to 9999; anything outside is NUMERIC_OUT_OF_RANGE.
#ifndef PARTITA_TYPES_TIMESTAMP_H_
#define PARTITA_TYPES_TIMESTAMP_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "partita/status.h"

namespace partita::timestamp {

inline constexpr int64_t kMicrosPerSecond = 1'000'000;
inline constexpr int64_t kMicrosPerMinute = 60 * kMicrosPerSecond;
inline constexpr int64_t kMicrosPerHour = 60 * kMicrosPerMinute;
inline constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;
// 0001-01-01 00:00:00 and 9999-12-31 23:59:59.999999.
inline constexpr int64_t kMinMicros = -62135596800LL * kMicrosPerSecond;
inline constexpr int64_t kMaxMicros = 253402300799LL * kMicrosPerSecond + 999999;

struct CivilTime {
  int64_t year;
  int month;        // 1..12
  int day;          // 1..31
  int hour, minute, second;
  int micros;       // 0..999999
  int day_of_week;  // 1 = Sunday .. 7 = Saturday
  int day_of_year;  // 1..366
};

CivilTime ToCivil(int64_t micros);
// Days since epoch of a civil date (proleptic Gregorian).
int64_t DaysFromCivil(int64_t year, int month, int day);

// Parses "YYYY-MM-DD", "YYYY-MM-DD HH:MM:SS" or with ".ffffff" (1-6 digits);
// 'T' may separate date and time.
Result<int64_t> Parse(std::string_view text);
// "YYYY-MM-DD HH:MM:SS.ffffff".
std::string Format(int64_t micros);

}  // namespace partita::timestamp

#endif  // PARTITA_TYPES_TIMESTAMP_H_
