// SplitRandom against values java.util.SplittableRandom gives for the same seed.
#include "split_random.h"

#include <gtest/gtest.h>

namespace partita::bench {
namespace {

TEST(SplitRandomTest, shouldDrawTheSameLongsAsJava) {
  SplitRandom r(42);
  EXPECT_EQ(r.NextLong(), -4767286540954276203LL);
  EXPECT_EQ(r.NextLong(), 2949826092126892291LL);
}

TEST(SplitRandomTest, shouldDrawTheSameBoundedIntsDoublesAndBooleansAsJava) {
  SplitRandom r(42);
  r.NextLong();
  r.NextLong();
  EXPECT_EQ(r.NextInt(264), 9);
  EXPECT_EQ(r.NextInt(100), 72);
  EXPECT_EQ(r.NextInt(10'000'000), 6986781);
  EXPECT_EQ(r.NextInt(256), 79);
  EXPECT_EQ(r.NextInt(7), 3);
  EXPECT_DOUBLE_EQ(r.NextDouble(), 0.8006318767135033);
  EXPECT_TRUE(r.NextBoolean());
  EXPECT_TRUE(r.NextBoolean());
}

TEST(SplitRandomTest, shouldSplitLikeJava) {
  SplitRandom r(42);
  r.NextLong();
  r.NextLong();
  for (int32_t bound : {264, 100, 10'000'000, 256, 7}) r.NextInt(bound);
  r.NextDouble();
  r.NextBoolean();
  r.NextBoolean();
  SplitRandom s = r.Split();
  EXPECT_EQ(s.NextLong(), 1881317480488503234LL);
  EXPECT_EQ(s.NextInt(1000), 209);
  EXPECT_EQ(r.NextLong(), -8976257307478440218LL);
}

TEST(SplitRandomTest, shouldStayWithinBoundForPowersOfTwoAndOthers) {
  SplitRandom r(1);
  for (int i = 0; i < 10'000; ++i) {
    const int32_t a = r.NextInt(1024);
    const int32_t b = r.NextInt(1'000'000'007);
    const double d = r.NextDouble();
    ASSERT_TRUE(a >= 0 && a < 1024) << a;
    ASSERT_TRUE(b >= 0 && b < 1'000'000'007) << b;
    ASSERT_TRUE(d >= 0 && d < 1) << d;
  }
}

}  // namespace
}  // namespace partita::bench
