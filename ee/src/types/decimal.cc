#include "types/decimal.h"

#include <cmath>

#include "errors.pb.h"

namespace partita::decimal {
namespace {

using uint128 = unsigned __int128;

Status OutOfRange(const char* what) {
  return Status(proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE,
                std::string("DECIMAL ") + what + " exceeds precision 38");
}

Result<int128> Bounded(int128 v, const char* what) {
  if (v > kDecimalMaxUnscaled || v < -kDecimalMaxUnscaled) return OutOfRange(what);
  return v;
}

// 256-bit unsigned value as two 128-bit halves.
struct U256 {
  uint128 hi;
  uint128 lo;
};

U256 MultiplyWide(uint128 a, uint128 b) {
  const uint64_t a0 = static_cast<uint64_t>(a), a1 = static_cast<uint64_t>(a >> 64);
  const uint64_t b0 = static_cast<uint64_t>(b), b1 = static_cast<uint64_t>(b >> 64);
  const uint128 p00 = static_cast<uint128>(a0) * b0;
  const uint128 p01 = static_cast<uint128>(a0) * b1;
  const uint128 p10 = static_cast<uint128>(a1) * b0;
  const uint128 p11 = static_cast<uint128>(a1) * b1;
  const uint128 mid = (p00 >> 64) + static_cast<uint64_t>(p01) + static_cast<uint64_t>(p10);
  U256 r;
  r.lo = (mid << 64) | static_cast<uint64_t>(p00);
  r.hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
  return r;
}

// Shift-subtract division of a 256-bit value by a 128-bit divisor.
// Returns false iff the quotient does not fit 128 bits.
bool DivideWide(U256 n, uint128 d, uint128* quotient) {
  if (n.hi >= d) return false;
  uint128 rem = n.hi;
  uint128 q = 0;
  for (int i = 127; i >= 0; --i) {
    const bool carry = (rem >> 127) != 0;
    rem = (rem << 1) | ((n.lo >> i) & 1);
    q <<= 1;
    if (carry || rem >= d) {
      rem -= d;
      q |= 1;
    }
  }
  *quotient = q;
  return true;
}

uint128 Magnitude(int128 v) { return v < 0 ? -static_cast<uint128>(v) : static_cast<uint128>(v); }

Result<int128> Signed(uint128 magnitude, bool negative, const char* what) {
  if (magnitude > static_cast<uint128>(kDecimalMaxUnscaled)) return OutOfRange(what);
  const int128 v = static_cast<int128>(magnitude);
  return negative ? -v : v;
}

}  // namespace

Result<int128> Parse(std::string_view text) {
  auto bad = [&] {
    return Status(proto::ERROR_CODE_TYPE_MISMATCH, "invalid DECIMAL literal '" + std::string(text) + "'");
  };
  size_t i = 0;
  while (i < text.size() && text[i] == ' ') ++i;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  int128 whole = 0;
  int whole_digits = 0, frac_digits = 0;
  int128 frac = 0;
  bool any = false;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, any = true) {
    if (whole == 0 && text[i] == '0') continue;
    if (++whole_digits > 38 - kDecimalScale) return OutOfRange("literal");
    whole = whole * 10 + (text[i] - '0');
  }
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, any = true) {
      if (++frac_digits > kDecimalScale) {
        return Status(proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE,
                      "DECIMAL literal '" + std::string(text) + "' has more than 12 fraction digits");
      }
      frac = frac * 10 + (text[i] - '0');
    }
  }
  while (i < text.size() && text[i] == ' ') ++i;
  if (!any || i != text.size()) return bad();
  for (int d = frac_digits; d < kDecimalScale; ++d) frac *= 10;
  const int128 v = whole * kDecimalScaleFactor + frac;
  return negative ? -v : v;
}

std::string Format(int128 unscaled) {
  const bool negative = unscaled < 0;
  uint128 m = Magnitude(unscaled);
  uint128 whole = m / kDecimalScaleFactor;
  uint64_t frac = static_cast<uint64_t>(m % kDecimalScaleFactor);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(whole % 10)));
    whole /= 10;
  } while (whole != 0);
  std::string out = negative ? "-" + digits : digits;
  if (frac != 0) {
    std::string f(kDecimalScale, '0');
    for (int i = kDecimalScale - 1; i >= 0; --i, frac /= 10) f[i] = static_cast<char>('0' + frac % 10);
    while (f.back() == '0') f.pop_back();
    out += "." + f;
  }
  return out;
}

Result<int128> FromInt(int64_t x) { return static_cast<int128>(x) * kDecimalScaleFactor; }

Result<int128> FromDouble(double x) {
  if (!std::isfinite(x) || std::fabs(x) >= 1e26) return OutOfRange("conversion from FLOAT");
  return static_cast<int128>(std::roundl(static_cast<long double>(x) * kDecimalScaleFactor));
}

double ToDouble(int128 unscaled) {
  return static_cast<double>(static_cast<long double>(unscaled) / kDecimalScaleFactor);
}

Result<int64_t> ToInt(int128 unscaled) {
  const int128 whole = unscaled / kDecimalScaleFactor;
  if (whole > INT64_MAX || whole < INT64_MIN) {
    return Status(proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE, "DECIMAL " + Format(unscaled) + " out of BIGINT range");
  }
  return static_cast<int64_t>(whole);
}

Result<int128> Add(int128 a, int128 b) {
  int128 sum;
  if (__builtin_add_overflow(a, b, &sum)) return OutOfRange("sum");
  return Bounded(sum, "sum");
}

Result<int128> Subtract(int128 a, int128 b) {
  int128 difference;
  if (__builtin_sub_overflow(a, b, &difference)) return OutOfRange("difference");
  return Bounded(difference, "difference");
}

Result<int128> Multiply(int128 a, int128 b) {
  const U256 product = MultiplyWide(Magnitude(a), Magnitude(b));
  uint128 q;
  if (!DivideWide(product, kDecimalScaleFactor, &q)) return OutOfRange("product");
  return Signed(q, (a < 0) != (b < 0), "product");
}

Result<int128> Divide(int128 a, int128 b) {
  if (b == 0) return Status(proto::ERROR_CODE_DIVISION_BY_ZERO, "DECIMAL division by zero");
  const U256 scaled = MultiplyWide(Magnitude(a), kDecimalScaleFactor);
  uint128 q;
  if (!DivideWide(scaled, Magnitude(b), &q)) return OutOfRange("quotient");
  return Signed(q, (a < 0) != (b < 0), "quotient");
}

}  // namespace partita::decimal
