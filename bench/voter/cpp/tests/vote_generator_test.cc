// VoteGenerator against the Java VoteGenerator's draws for the same seeds.
#include "vote_generator.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "area_codes.h"

namespace partita::bench::voter {
namespace {

TEST(AreaCodesTest, shouldHoldTheJavaTableOf264CodesAndStates) {
  ASSERT_EQ(kAreaCodeCount, 264u);
  EXPECT_EQ(kAreaCodes[0], 201);
  EXPECT_STREQ(kAreaStates[0], "NJ");
  EXPECT_EQ(kAreaCodes[263], 989);
  std::set<int> distinct(kAreaCodes, kAreaCodes + kAreaCodeCount);
  EXPECT_EQ(distinct.size(), kAreaCodeCount);
}

TEST(VoteGeneratorTest, shouldDrawTheSameCallsAsTheJavaDriver) {
  VoteGenerator g(6, SplitRandom(42));
  const std::vector<std::pair<int64_t, int>> expected = {{5624697556LL, 2}, {2074364071LL, 1}, {6192818706LL, 6},
                                                         {3300603846LL, 1}, {2240713248LL, 2}, {8435265886LL, 3}};
  for (const auto& [phone, contestant] : expected) {
    g.Next();
    EXPECT_EQ(g.phone(), phone);
    EXPECT_EQ(g.contestant(), contestant);
  }
  VoteGenerator s = g.Split();
  s.Next();
  EXPECT_EQ(s.phone(), 6077816417LL);
  EXPECT_EQ(s.contestant(), 4);
}

TEST(VoteGeneratorTest, shouldGiveAreaCodesTheJavaFavourites) {
  VoteGenerator g(6, SplitRandom(1));
  const std::vector<int> expected = {1, 3, 1, 5, 2, 1, 3, 1, 6, 2, 1, 4};
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(g.Favourite(i), expected[i]) << i;
}

TEST(VoteGeneratorTest, shouldWeighContestantsByOneOverK) {
  VoteGenerator g(6, SplitRandom(1));
  const double sum = 1 + 1 / 2.0 + 1 / 3.0 + 1 / 4.0 + 1 / 5.0 + 1 / 6.0;
  EXPECT_NEAR(g.Weight(1), 1 / sum, 1e-12);
  EXPECT_NEAR(g.Weight(6), 1 / 6.0 / sum, 1e-12);
}

TEST(VoteGeneratorTest, shouldDrawKnownPhonesSkewedContestantsAndAboutOneInvalidInAHundred) {
  constexpr int kCalls = 200'000;
  VoteGenerator g(6, SplitRandom(7));
  const std::set<int64_t> codes(kAreaCodes, kAreaCodes + kAreaCodeCount);
  std::vector<int> votes(8, 0);
  for (int i = 0; i < kCalls; ++i) {
    g.Next();
    ASSERT_TRUE(codes.count(g.phone() / VoteGenerator::kAreaCodeMultiplier)) << g.phone();
    ASSERT_TRUE(g.contestant() >= 1 && g.contestant() <= 7) << g.contestant();
    ++votes[g.contestant()];
  }
  EXPECT_NEAR(votes[7] / static_cast<double>(kCalls), 0.01, 0.002);
  const double valid = kCalls - votes[7];
  for (int k = 1; k <= 6; ++k) EXPECT_NEAR(votes[k] / valid, g.Weight(k), 0.02) << k;
  EXPECT_GT(votes[1], votes[2]);
  EXPECT_GT(votes[2], votes[6]);
}

TEST(VoteGeneratorTest, shouldHandleASingleContestant) {
  VoteGenerator g(1, SplitRandom(3));
  for (int i = 0; i < 1000; ++i) {
    g.Next();
    ASSERT_TRUE(g.contestant() == 1 || g.contestant() == 2);
  }
}

}  // namespace
}  // namespace partita::bench::voter
