package org.partita.bench.kv;

import java.util.SplittableRandom;

/**
 * Zipf-distributed keys: key {@code k} (0-based) is chosen with probability
 * proportional to {@code 1 / (k + 1)^s}, so key 0 is the hottest. Sampled by
 * rejection-inversion (W. Hörmann and G. Derflinger, "Rejection-inversion to
 * generate variates from monotone discrete distributions", 1996): constant
 * memory and time, on average about one uniform draw per sample, whatever
 * the number of keys.
 *
 * <p>The method inverts the integral {@code H} of the continuous hat function
 * {@code h(x) = x^-s} over {@code [0.5, n + 0.5]}; a candidate {@code x} is
 * rounded to the nearest integer {@code k} and accepted when it falls in the
 * part of the hat that lies under the step {@code h(k)}. Immutable;
 * thread-safe.
 */
public final class ZipfKeyChooser implements KeyChooser {
  /** The exponent of {@code --keys zipf}. */
  public static final double DEFAULT_EXPONENT = 0.99;

  private final int count;
  private final double exponent;
  private final double hIntegralX1;
  private final double hIntegralN;
  private final double squeeze;

  /** REQUIRES: {@code count >= 1}, {@code exponent > 0}. */
  public ZipfKeyChooser(int count, double exponent) {
    if (count < 1 || !(exponent > 0)) {
      throw new IllegalArgumentException("zipf needs at least 1 key and an exponent > 0, got " + count + " keys, "
          + "exponent " + exponent);
    }
    this.count = count;
    this.exponent = exponent;
    this.hIntegralX1 = hIntegral(1.5) - 1.0;
    this.hIntegralN = hIntegral(count + 0.5);
    this.squeeze = 2.0 - hIntegralInverse(hIntegral(2.5) - h(2.0));
  }

  @Override
  public int next(SplittableRandom random) {
    while (true) {
      final double u = hIntegralN + random.nextDouble() * (hIntegralX1 - hIntegralN);
      final double x = hIntegralInverse(u);
      long k = (long) (x + 0.5);
      if (k < 1) {
        k = 1;
      } else if (k > count) {
        k = count;
      }
      if (k - x <= squeeze || u >= hIntegral(k + 0.5) - h(k)) {
        return (int) (k - 1);
      }
    }
  }

  /** The exact probability of key {@code index} (for tests and reports; O(count)). */
  public double probability(int index) {
    double norm = 0;
    for (int k = 1; k <= count; k++) {
      norm += h(k);
    }
    return h(index + 1.0) / norm;
  }

  private double h(double x) {
    return Math.exp(-exponent * Math.log(x));
  }

  /** {@code H(x) = (x^(1-s) - 1) / (1 - s)}, or {@code log x} when s = 1, computed stably near s = 1. */
  private double hIntegral(double x) {
    final double logX = Math.log(x);
    return expm1OverX((1.0 - exponent) * logX) * logX;
  }

  private double hIntegralInverse(double x) {
    double t = x * (1.0 - exponent);
    if (t < -1.0) {
      t = -1.0; // rounding can push t just below -1, where log1p is undefined
    }
    return Math.exp(log1pOverX(t) * x);
  }

  private static double expm1OverX(double x) {
    return Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + x * 0.25));
  }

  private static double log1pOverX(double x) {
    return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1.0 - x * (0.5 - x * (1.0 / 3.0 - x * 0.25));
  }
}
