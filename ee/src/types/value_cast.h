// Conversions between SQL types, under two rule sets:
//   kExact  — assignment to a column and statement parameters: allowed iff no
//             information is lost (5 BIGINT -> TINYINT is fine, 300 is not;
//             2.0 FLOAT -> INTEGER is fine, 2.5 is not); text is never parsed
//             as a number.
//   kCast   — explicit CAST: FLOAT/DECIMAL to integer truncate toward zero,
//             numbers and timestamps format as text, text parses.
// In both, a value out of the target's range and a string longer than
// `max_length` are errors (never silent wraps or truncation).
#ifndef PARTITA_TYPES_VALUE_CAST_H_
#define PARTITA_TYPES_VALUE_CAST_H_

#include <string_view>

#include "common/arena.h"
#include "partita/status.h"
#include "partita/value.h"

namespace partita {

enum class ConversionMode { kExact, kCast };

// Converts `v` to `target`. `max_length` bounds VARCHAR (characters) and
// VARBINARY (bytes); 0 = unbounded. `what` names the destination in error
// messages ("column VOTES.STATE", "parameter 2"). Strings produced by the
// conversion are allocated in `arena`. A NULL converts to a NULL of `target`.
Result<Value> ConvertValue(const Value& v, ValueType target, int32_t max_length, ConversionMode mode, Arena* arena,
                           std::string_view what);

// Checks a VARCHAR/VARBINARY value against `max_length`; OK when it fits.
Status CheckLength(const Value& v, int32_t max_length, std::string_view what);

}  // namespace partita

#endif  // PARTITA_TYPES_VALUE_CAST_H_
