// ZipfSampler: Zipf-distributed key numbers: key k (0-based) is chosen with
// probability proportional to 1 / (k + 1)^s, so key 0 is the hottest.
// Sampled by rejection-inversion (W. Hoermann and G. Derflinger,
// "Rejection-inversion to generate variates from monotone discrete
// distributions", 1996): constant memory and time, on average about one
// uniform draw per sample, whatever the number of keys. The same method and
// arithmetic as the Java driver's ZipfKeyChooser.
//
// Ownership: a value type. Thread model: immutable; safe from any thread
// (the randomness comes from the caller's generator).
#ifndef PARTITA_BENCH_KV_ZIPF_SAMPLER_H_
#define PARTITA_BENCH_KV_ZIPF_SAMPLER_H_

#include "split_random.h"

namespace partita::bench::kv {

class ZipfSampler {
 public:
  // The exponent of --keys zipf.
  static constexpr double kDefaultExponent = 0.99;

  // REQUIRES: count >= 1, exponent > 0.
  ZipfSampler(int count, double exponent);

  // A key number in [0, count).
  int Next(SplitRandom& random) const;

  // The exact probability of key `index` (for tests; O(count)).
  double Probability(int index) const;

 private:
  double H(double x) const;
  double HIntegral(double x) const;
  double HIntegralInverse(double x) const;

  int count_;
  double exponent_;
  double h_integral_x1_;
  double h_integral_n_;
  double squeeze_;
};

}  // namespace partita::bench::kv

#endif  // PARTITA_BENCH_KV_ZIPF_SAMPLER_H_
