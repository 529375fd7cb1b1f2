#include "text_format.h"

#include <gtest/gtest.h>

namespace partita::bench {
namespace {

TEST(TextFormatTest, shouldGroupDigitsByThree) {
  EXPECT_EQ(Grouped(0), "0");
  EXPECT_EQ(Grouped(999), "999");
  EXPECT_EQ(Grouped(1000), "1,000");
  EXPECT_EQ(Grouped(-1234567), "-1,234,567");
  EXPECT_EQ(GroupedFixed(301234.5, 0), "301,235");
  EXPECT_EQ(GroupedFixed(1234.25, 1), "1,234.3");
}

TEST(TextFormatTest, shouldRoundHalfUpLikeJava) {
  EXPECT_EQ(Fixed(0.5, 0), "1");
  EXPECT_EQ(Fixed(2.5, 0), "3");
  EXPECT_EQ(Fixed(0.1234, 3), "0.123");
  EXPECT_EQ(Fixed(-0.0001, 2), "0.00");
  EXPECT_EQ(Fixed(30, 1), "30.0");
}

TEST(TextFormatTest, shouldWriteTheShortestExactNumber) {
  EXPECT_EQ(Shortest(30), "30");
  EXPECT_EQ(Shortest(0.9), "0.9");
}

TEST(TextFormatTest, shouldPadToAColumn) {
  EXPECT_EQ(PadLeft("12", 4), "  12");
  EXPECT_EQ(PadRight("ab", 4), "ab  ");
  EXPECT_EQ(PadLeft("toolong", 3), "toolong");
}

}  // namespace
}  // namespace partita::bench
