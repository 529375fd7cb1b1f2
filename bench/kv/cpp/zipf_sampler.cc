#include "zipf_sampler.h"

#include <cmath>

namespace partita::bench::kv {
namespace {

double Expm1OverX(double x) {
  return std::abs(x) > 1e-8 ? std::expm1(x) / x : 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + x * 0.25));
}

double Log1pOverX(double x) {
  return std::abs(x) > 1e-8 ? std::log1p(x) / x : 1.0 - x * (0.5 - x * (1.0 / 3.0 - x * 0.25));
}

}  // namespace

ZipfSampler::ZipfSampler(int count, double exponent)
    : count_(count),
      exponent_(exponent),
      h_integral_x1_(HIntegral(1.5) - 1.0),
      h_integral_n_(HIntegral(count + 0.5)),
      squeeze_(2.0 - HIntegralInverse(HIntegral(2.5) - H(2.0))) {}

int ZipfSampler::Next(SplitRandom& random) const {
  while (true) {
    const double u = h_integral_n_ + random.NextDouble() * (h_integral_x1_ - h_integral_n_);
    const double x = HIntegralInverse(u);
    auto k = static_cast<int64_t>(x + 0.5);
    if (k < 1) {
      k = 1;
    } else if (k > count_) {
      k = count_;
    }
    const auto kd = static_cast<double>(k);
    if (kd - x <= squeeze_ || u >= HIntegral(kd + 0.5) - H(kd)) return static_cast<int>(k - 1);
  }
}

double ZipfSampler::Probability(int index) const {
  double norm = 0;
  for (int k = 1; k <= count_; ++k) norm += H(k);
  return H(index + 1.0) / norm;
}

double ZipfSampler::H(double x) const { return std::exp(-exponent_ * std::log(x)); }

// H(x) = (x^(1-s) - 1) / (1 - s), or log x when s = 1, computed stably near s = 1.
double ZipfSampler::HIntegral(double x) const {
  const double log_x = std::log(x);
  return Expm1OverX((1.0 - exponent_) * log_x) * log_x;
}

double ZipfSampler::HIntegralInverse(double x) const {
  double t = x * (1.0 - exponent_);
  if (t < -1.0) t = -1.0;  // rounding can push t just below -1, where log1p is undefined
  return std::exp(Log1pOverX(t) * x);
}

}  // namespace partita::bench::kv
