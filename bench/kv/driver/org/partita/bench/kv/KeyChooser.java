package org.partita.bench.kv;

import java.util.SplittableRandom;

/**
 * Picks the key of the next operation: a key number in {@code [0, count)}.
 * Implementations are immutable and thread-safe; the randomness comes from
 * the caller's generator (one per thread).
 */
public interface KeyChooser {
  int next(SplittableRandom random);

  /** Uniform over the keys, or Zipf with exponent {@link ZipfKeyChooser#DEFAULT_EXPONENT} (key 0 hottest). */
  static KeyChooser of(KvSettings.KeyDistribution distribution, int count) {
    return switch (distribution) {
      case UNIFORM -> random -> random.nextInt(count);
      case ZIPF -> new ZipfKeyChooser(count, ZipfKeyChooser.DEFAULT_EXPONENT);
    };
  }
}
