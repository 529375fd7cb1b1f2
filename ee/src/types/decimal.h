// DECIMAL(38, 12) arithmetic on unscaled 128-bit integers (see value.h).
// Every operation checks the 38-digit bound and reports overflow as
// NUMERIC_OUT_OF_RANGE; division rounds toward zero at the 12th digit.
#ifndef PARTITA_TYPES_DECIMAL_H_
#define PARTITA_TYPES_DECIMAL_H_

#include <string>
#include <string_view>

#include "partita/status.h"
#include "partita/value.h"

namespace partita::decimal {

// Parses "-123.456" (optional sign, digits, optional fraction). More than 12
// fraction digits or 26 integer digits is an error naming the text.
Result<int128> Parse(std::string_view text);
// Formats with the fraction digits needed ("12.5", "-3", "0.000000000001").
std::string Format(int128 unscaled);

Result<int128> FromInt(int64_t x);
// Rejects NaN, infinities and values beyond 38 digits.
Result<int128> FromDouble(double x);
double ToDouble(int128 unscaled);
// Truncates toward zero; errors if out of BIGINT range.
Result<int64_t> ToInt(int128 unscaled);
// Returns true iff the value has no fraction.
inline bool IsWhole(int128 unscaled) { return unscaled % kDecimalScaleFactor == 0; }

Result<int128> Add(int128 a, int128 b);
Result<int128> Subtract(int128 a, int128 b);
Result<int128> Multiply(int128 a, int128 b);
Result<int128> Divide(int128 a, int128 b);

}  // namespace partita::decimal

#endif  // PARTITA_TYPES_DECIMAL_H_
