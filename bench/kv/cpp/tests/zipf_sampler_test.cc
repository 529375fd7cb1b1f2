#include "zipf_sampler.h"

#include <gtest/gtest.h>

#include <vector>

namespace partita::bench::kv {
namespace {

TEST(ZipfSamplerTest, shouldDrawTheSameKeysAsTheJavaDriver) {
  const ZipfSampler zipf(100'000, 0.99);
  SplitRandom random(42);
  const std::vector<int> expected = {14, 15874, 3960, 1823, 64749, 2, 8027, 6, 1917, 66};
  for (const int key : expected) EXPECT_EQ(zipf.Next(random), key);
  const ZipfSampler steep(10, 1.5);
  SplitRandom random2(7);
  for (const int key : {1, 8, 0, 0, 1, 2, 1, 1, 4, 1}) EXPECT_EQ(steep.Next(random2), key);
}

TEST(ZipfSamplerTest, shouldFollowTheExactProbabilities) {
  constexpr int kKeys = 50;
  constexpr int kDraws = 400'000;
  const ZipfSampler zipf(kKeys, 0.99);
  SplitRandom random(3);
  std::vector<int> counts(kKeys, 0);
  for (int i = 0; i < kDraws; ++i) {
    const int k = zipf.Next(random);
    ASSERT_TRUE(k >= 0 && k < kKeys) << k;
    ++counts[static_cast<size_t>(k)];
  }
  for (const int k : {0, 1, 9, 49}) {
    EXPECT_NEAR(counts[static_cast<size_t>(k)] / static_cast<double>(kDraws), zipf.Probability(k),
                0.1 * zipf.Probability(k) + 0.001)
        << k;
  }
}

TEST(ZipfSamplerTest, shouldHandleOneKeyAndAnExponentOfOne) {
  SplitRandom random(1);
  const ZipfSampler one(1, 0.99);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(one.Next(random), 0);
  const ZipfSampler harmonic(1000, 1.0);
  for (int i = 0; i < 10'000; ++i) {
    const int k = harmonic.Next(random);
    ASSERT_TRUE(k >= 0 && k < 1000) << k;
  }
  EXPECT_NEAR(harmonic.Probability(0) / harmonic.Probability(1), 2.0, 1e-9);
}

}  // namespace
}  // namespace partita::bench::kv
