// Keys and values against what the Java driver makes for the same settings.
#include <gtest/gtest.h>

#include "key_chooser.h"
#include "key_space.h"
#include "value_factory.h"

namespace partita::bench::kv {
namespace {

TEST(KeySpaceTest, shouldZeroPadKeysToTheirWidth) {
  const KeySpace keys(100'000, 10);
  EXPECT_EQ(keys.Key(123), "k000000123");
  EXPECT_EQ(keys.Key(0), "k000000000");
  EXPECT_EQ(KeySpace(100'000, 32).Key(99'999).size(), 32u);
}

TEST(KeySpaceTest, shouldRejectWidthsThatCannotHoldTheKeys) {
  EXPECT_EQ(KeySpace::Check(100'000, 6), "");
  EXPECT_EQ(KeySpace::Check(100'000, 5),
            "--key-size must be between 6 (\"k\" and the digits of 99999) and 32 (the width of store.key), got 5");
  EXPECT_NE(KeySpace::Check(10, 33).find("got 33"), std::string::npos);
  EXPECT_EQ(KeySpace::Check(0, 32), "--preload must be at least 1 key, got 0");
}

TEST(ValueFactoryTest, shouldMakeTheJavaDriversBytes) {
  const ValueFactory values(16, 42);
  const std::string v = values.Value(12345);
  ASSERT_EQ(v.size(), 16u);
  EXPECT_EQ(v.substr(0, 8), std::string("\0\0\0\0\0\0\x30\x39", 8));  // 12345, big-endian
  // Java: offset 173, pool[181] = -59, pool[182] = 108, pool[188] = 126.
  EXPECT_EQ(static_cast<signed char>(v[8]), -59);
  EXPECT_EQ(static_cast<signed char>(v[9]), 108);
  EXPECT_EQ(static_cast<signed char>(v[15]), 126);
}

TEST(ValueFactoryTest, shouldRecognizeItsOwnValuesOnly) {
  const ValueFactory values(1024, 42);
  const std::string v = values.Value(7);
  EXPECT_EQ(ValueFactory::SequenceOf(v), 7);
  EXPECT_TRUE(values.IsValueOf(v, 7));
  EXPECT_FALSE(values.IsValueOf(v, 8));
  std::string tampered = v;
  tampered[500] ^= 1;
  EXPECT_FALSE(values.IsValueOf(tampered, 7));
  EXPECT_FALSE(values.IsValueOf(v.substr(0, 1000), 7));
  EXPECT_EQ(ValueFactory::SequenceOf("short"), -1);
  EXPECT_NE(values.Value(1).substr(8), values.Value(2).substr(8));
}

TEST(ValueFactoryTest, shouldRejectSizesTheSchemaCannotHold) {
  EXPECT_EQ(ValueFactory::Check(8), "");
  EXPECT_EQ(ValueFactory::Check(1 << 20), "");
  EXPECT_EQ(ValueFactory::Check(7),
            "--value-size must be between 8 (the write's sequence number) and 1048576 bytes (the width of "
            "store.value), got 7");
  EXPECT_NE(ValueFactory::Check((1 << 20) + 1).find("got 1048577"), std::string::npos);
}

TEST(KeyChooserTest, shouldDrawUniformKeysLikeJava) {
  const KeyChooser chooser("uniform", 264);
  SplitRandom random(42);
  random.NextLong();
  random.NextLong();
  EXPECT_EQ(chooser.Next(random), 9);  // SplittableRandom(42) after two longs: nextInt(264) = 9
}

}  // namespace
}  // namespace partita::bench::kv
