#include "errors.pb.h"
#include "types/timestamp.h"

#include <gtest/gtest.h>

namespace partita {
namespace {

using timestamp::kMicrosPerDay;
using timestamp::kMicrosPerSecond;

int64_t P(std::string_view text) {
  Result<int64_t> r = timestamp::Parse(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
  return r.ok() ? r.value() : -1;
}

TEST(TimestampTest, ParsesDateTimeAndFraction) {
  EXPECT_EQ(P("1970-01-01"), 0);
  EXPECT_EQ(P("1970-01-02 00:00:01"), kMicrosPerDay + kMicrosPerSecond);
  EXPECT_EQ(P("1970-01-01T00:00:01.5"), 1'500'000);
  EXPECT_EQ(P("1970-01-01 00:00:00.000001"), 1);
  EXPECT_EQ(P("1969-12-31 23:59:59.999999"), -1);
}

TEST(TimestampTest, FormatRoundTripsAcrossTheRange) {
  for (const char* text : {"1970-01-01 00:00:00.000000", "2026-11-22 13:45:00.123456", "1969-07-20 20:17:40.000000",
                           "0001-01-01 00:00:00.000000", "9999-12-31 23:59:59.999999", "2000-02-29 12:00:00.000000"}) {
    EXPECT_EQ(timestamp::Format(P(text)), text);
  }
  EXPECT_EQ(P("0001-01-01"), timestamp::kMinMicros);
  EXPECT_EQ(P("9999-12-31 23:59:59.999999"), timestamp::kMaxMicros);
}

TEST(TimestampTest, FebruaryTwentyNinthExistsOnlyInLeapYears) {
  EXPECT_TRUE(timestamp::Parse("2000-02-29").ok());
  EXPECT_TRUE(timestamp::Parse("2024-02-29").ok());
  EXPECT_FALSE(timestamp::Parse("1900-02-29").ok());
  EXPECT_FALSE(timestamp::Parse("2023-02-29").ok());
  EXPECT_EQ(P("2024-03-01") - P("2024-02-28"), 2 * kMicrosPerDay);
  EXPECT_EQ(P("2023-03-01") - P("2023-02-28"), kMicrosPerDay);
}

TEST(TimestampTest, RejectsInvalidDatesAndTimes) {
  for (const char* text : {"2023-04-31", "2023-13-01", "2023-00-10", "2023-01-00", "0000-01-01", "2023-1-01",
                           "2023-01-01 24:00:00", "2023-01-01 23:60:00", "2023-01-01 23:59:60",
                           "2023-01-01 10:00", "2023-01-01 10:00:00.", "2023-01-01 10:00:00.1234567",
                           "2023-01-01x", "2023-01-01 10:00:00Z", "", "abcd-ef-gh"}) {
    EXPECT_EQ(timestamp::Parse(text).status().code(), proto::ERROR_CODE_TYPE_MISMATCH) << "'" << text << "'";
  }
}

TEST(TimestampTest, CivilFieldsIncludeDayOfWeekAndYear) {
  const timestamp::CivilTime epoch = timestamp::ToCivil(0);
  EXPECT_EQ(epoch.day_of_week, 5);  // Thursday
  EXPECT_EQ(epoch.day_of_year, 1);
  const timestamp::CivilTime t = timestamp::ToCivil(P("2024-12-31 23:59:58.25"));
  EXPECT_EQ(t.year, 2024);
  EXPECT_EQ(t.month, 12);
  EXPECT_EQ(t.day, 31);
  EXPECT_EQ(t.second, 58);
  EXPECT_EQ(t.micros, 250000);
  EXPECT_EQ(t.day_of_year, 366);
  EXPECT_EQ(t.day_of_week, 3);  // Tuesday
  EXPECT_EQ(timestamp::ToCivil(-1).day_of_week, 4);  // 1969-12-31, Wednesday
}

TEST(TimestampTest, DaysFromCivilCountsLeapDays) {
  EXPECT_EQ(timestamp::DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(timestamp::DaysFromCivil(2000, 3, 1), 11017);
  EXPECT_EQ(timestamp::DaysFromCivil(1969, 12, 31), -1);
}

}  // namespace
}  // namespace partita
