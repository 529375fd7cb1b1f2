#include "verifier.h"

#include <gtest/gtest.h>

namespace partita::bench::kv {
namespace {

TEST(VerifierTest, shouldAcceptTheValueOfACandidate) {
  const ValueFactory values(64, 42);
  const std::string v = values.Value(5);
  EXPECT_EQ(Verifier::CheckValue("k1", values, {4, 5}, true, v), "");
}

TEST(VerifierTest, shouldRejectAnOlderValue) {
  const ValueFactory values(64, 42);
  const std::string v = values.Value(3);
  EXPECT_EQ(Verifier::CheckValue("k1", values, {5}, true, v),
            "k1: holds 64 bytes of write 3, expected the value of write 5");
}

TEST(VerifierTest, shouldRejectACorruptValueWithTheRightSequence) {
  const ValueFactory values(64, 42);
  std::string v = values.Value(5);
  v[40] ^= 0x10;
  EXPECT_NE(Verifier::CheckValue("k1", values, {5}, true, v), "");
}

TEST(VerifierTest, shouldRejectAMissingRowANullAndAKeyNeverWritten) {
  const ValueFactory values(64, 42);
  EXPECT_EQ(Verifier::CheckValue("k1", values, {5, 6}, false, std::nullopt),
            "k1: no row, expected the value of write 5 or 6");
  EXPECT_EQ(Verifier::CheckValue("k1", values, {5}, true, std::nullopt),
            "k1: holds NULL, expected the value of write 5");
  EXPECT_EQ(Verifier::CheckValue("k1", values, {}, true, values.Value(5)),
            "k1: the driver recorded no acknowledged write of this key");
}

TEST(VerifierTest, shouldSampleRandomKeysAndEveryRecentWrite) {
  const KeySpace keys(1000, 8);
  const ValueFactory values(8, 1);
  WriteLog writes(1000);
  writes.Acknowledged(999, 1, 10, 500);  // recent
  writes.Acknowledged(998, 2, 10, 50);   // not recent
  const Verifier verifier(nullptr, &keys, &values, &writes);
  const std::vector<int> sample = verifier.Sample(10, 100, 42);
  EXPECT_TRUE(sample.size() == 11u || sample.size() == 10u) << sample.size();
  EXPECT_EQ(sample.back(), 999);
  EXPECT_EQ(verifier.Sample(5000, 100, 42).size(), 1000u);  // the sample is capped at the key count
  EXPECT_EQ(verifier.Sample(10, 100, 42), sample);           // the same seed, the same keys
}

}  // namespace
}  // namespace partita::bench::kv
