#include "types/timestamp.h"

#include <cstdio>

#include "errors.pb.h"

namespace partita::timestamp {
namespace {

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// Civil date from days since epoch (Hinnant's algorithm).
void CivilFromDays(int64_t z, int64_t* y, int* m, int* d) {
  z += 719468;
  const int64_t era = FloorDiv(z, 146097);
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  *d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  *m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  *y = yoe + era * 400 + (*m <= 2);
}

bool ParseDigits(std::string_view s, size_t* pos, int count, int* out) {
  int v = 0;
  for (int i = 0; i < count; ++i, ++*pos) {
    if (*pos >= s.size() || s[*pos] < '0' || s[*pos] > '9') return false;
    v = v * 10 + (s[*pos] - '0');
  }
  *out = v;
  return true;
}

bool Expect(std::string_view s, size_t* pos, char c) {
  if (*pos >= s.size() || s[*pos] != c) return false;
  ++*pos;
  return true;
}

int DaysInMonth(int64_t y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

}  // namespace

int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = FloorDiv(y, 400);
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

CivilTime ToCivil(int64_t micros) {
  CivilTime t{};
  const int64_t days = FloorDiv(micros, kMicrosPerDay);
  int64_t rest = micros - days * kMicrosPerDay;
  CivilFromDays(days, &t.year, &t.month, &t.day);
  t.hour = static_cast<int>(rest / kMicrosPerHour);
  rest %= kMicrosPerHour;
  t.minute = static_cast<int>(rest / kMicrosPerMinute);
  rest %= kMicrosPerMinute;
  t.second = static_cast<int>(rest / kMicrosPerSecond);
  t.micros = static_cast<int>(rest % kMicrosPerSecond);
  // 1970-01-01 was a Thursday (5 with Sunday = 1).
  t.day_of_week = static_cast<int>(((days % 7) + 7 + 4) % 7) + 1;
  t.day_of_year = static_cast<int>(days - DaysFromCivil(t.year, 1, 1)) + 1;
  return t;
}

Result<int64_t> Parse(std::string_view text) {
  auto bad = [&] {
    return Status(proto::ERROR_CODE_TYPE_MISMATCH,
                  "invalid TIMESTAMP '" + std::string(text) + "' (expected YYYY-MM-DD[ HH:MM:SS[.ffffff]])");
  };
  size_t pos = 0;
  int y, m, d, hh = 0, mi = 0, ss = 0, frac = 0;
  if (!ParseDigits(text, &pos, 4, &y) || !Expect(text, &pos, '-') || !ParseDigits(text, &pos, 2, &m) ||
      !Expect(text, &pos, '-') || !ParseDigits(text, &pos, 2, &d)) {
    return bad();
  }
  if (pos < text.size()) {
    if (text[pos] != ' ' && text[pos] != 'T') return bad();
    ++pos;
    if (!ParseDigits(text, &pos, 2, &hh) || !Expect(text, &pos, ':') || !ParseDigits(text, &pos, 2, &mi) ||
        !Expect(text, &pos, ':') || !ParseDigits(text, &pos, 2, &ss)) {
      return bad();
    }
    if (pos < text.size()) {
      if (text[pos++] != '.') return bad();
      int digits = 0;
      for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && digits < 6; ++pos, ++digits) {
        frac = frac * 10 + (text[pos] - '0');
      }
      if (digits == 0 || pos != text.size()) return bad();
      for (; digits < 6; ++digits) frac *= 10;
    }
  }
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > DaysInMonth(y, m) || hh > 23 || mi > 59 || ss > 59) return bad();
  return DaysFromCivil(y, m, d) * kMicrosPerDay + hh * kMicrosPerHour + mi * kMicrosPerMinute +
         ss * kMicrosPerSecond + frac;
}

std::string Format(int64_t micros) {
  const CivilTime t = ToCivil(micros);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04lld-%02d-%02d %02d:%02d:%02d.%06d", static_cast<long long>(t.year), t.month,
                t.day, t.hour, t.minute, t.second, t.micros);
  return buf;
}

}  // namespace partita::timestamp
