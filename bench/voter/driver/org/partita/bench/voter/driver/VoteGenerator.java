package org.partita.bench.voter.driver;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.partita.bench.voter.AreaCodes;

/**
 * The phone calls of the Voter workload: who calls, and for whom.
 *
 * <ul>
 *   <li>Phone number: a known area code ({@link AreaCodes}, uniformly) ×
 *       10^7 + 7 uniformly random digits, so almost every caller is new.
 *   <li>1 call in 100 names contestant {@code contestants + 1}, which does
 *       not exist (Vote rejects it).
 *   <li>Otherwise the contestant is skewed. Contestant k (1..n) has weight
 *       1/k (n = 6: 40.8%, 20.4%, 13.6%, 10.2%, 8.2%, 6.8%). Each area code
 *       has a favourite: for the area code at index i of
 *       {@link AreaCodes#CODES}, the contestant whose cumulative-weight
 *       bucket holds (i × 0.618033988749895) mod 1, so favourites follow the
 *       same weights spread evenly over the country. Half the calls vote for
 *       their area code's favourite, the other half draw a contestant by the
 *       weights. Overall, contestant k gets about weight(k) of the valid
 *       votes, and states lean towards different contestants (see
 *       GetStateHeatmap).
 * </ul>
 *
 * <p>Thread model: not thread-safe; one generator per calling thread
 * ({@link #split} makes an independent one).
 */
public final class VoteGenerator {
  /** One call in this many names a contestant that does not exist. */
  public static final int INVALID_ONE_IN = 100;
  private static final long AREA_CODE_MULTIPLIER = 10_000_000L;
  private static final double GOLDEN_RATIO_FRACTION = 0.618033988749895;

  private final SplittableRandom random;
  private final int contestants;
  /** cumulative[k - 1]: the weights of contestants 1..k over their sum; the last is 1. */
  private final double[] cumulative;
  private final int[] favourites;
  private long phone;
  private int contestant;

  /** A generator for {@code contestants} contestants (at least 1) drawing from {@code random}. */
  public VoteGenerator(int contestants, SplittableRandom random) {
    if (contestants < 1) {
      throw new IllegalArgumentException("contestants must be at least 1, got " + contestants);
    }
    this.random = random;
    this.contestants = contestants;
    this.cumulative = cumulativeWeights(contestants);
    this.favourites = favourites(cumulative);
  }

  /** An independent generator with the same contestants, for another thread. */
  public VoteGenerator split() {
    return new VoteGenerator(contestants, random.split());
  }

  /** Draws the next call; read it with {@link #phone()} and {@link #contestant()}. */
  public void next() {
    final int areaIndex = random.nextInt(AreaCodes.CODES.length);
    phone = AreaCodes.CODES[areaIndex] * AREA_CODE_MULTIPLIER + random.nextInt((int) AREA_CODE_MULTIPLIER);
    if (random.nextInt(INVALID_ONE_IN) == 0) {
      contestant = contestants + 1;
    } else if (random.nextBoolean()) {
      contestant = favourites[areaIndex];
    } else {
      contestant = pick(cumulative, random.nextDouble());
    }
  }

  /** The phone number of the last call drawn. */
  public long phone() {
    return phone;
  }

  /** The contestant of the last call drawn: 1..contestants, or contestants + 1 (invalid). */
  public int contestant() {
    return contestant;
  }

  /** The weight of contestant {@code k} among the valid votes: (1/k) / (1/1 + ... + 1/n). */
  public double weight(int k) {
    return cumulative[k - 1] - (k > 1 ? cumulative[k - 2] : 0);
  }

  /** The favourite contestant of the area code at {@code areaIndex} of {@link AreaCodes#CODES}. */
  public int favourite(int areaIndex) {
    return favourites[areaIndex];
  }

  private static double[] cumulativeWeights(int n) {
    final double[] c = new double[n];
    double sum = 0;
    for (int k = 1; k <= n; k++) {
      sum += 1.0 / k;
      c[k - 1] = sum;
    }
    for (int k = 0; k < n; k++) {
      c[k] /= sum;
    }
    c[n - 1] = 1.0;
    return c;
  }

  private static int[] favourites(double[] cumulative) {
    final int[] f = new int[AreaCodes.CODES.length];
    for (int i = 0; i < f.length; i++) {
      final double u = (i * GOLDEN_RATIO_FRACTION) % 1.0;
      f[i] = pick(cumulative, u);
    }
    return f;
  }

  /** The contestant (from 1) whose bucket holds {@code u} in [0, 1). */
  private static int pick(double[] cumulative, double u) {
    final int at = Arrays.binarySearch(cumulative, u);
    final int index = at >= 0 ? at + 1 : -at - 1;
    return Math.min(index, cumulative.length - 1) + 1;
  }
}
