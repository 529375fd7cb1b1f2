package org.partita.bench.kv;

import java.util.Arrays;

/**
 * The driver's keys: {@code count} fixed-width strings, key {@code i} being
 * "k" followed by {@code i} in decimal, zero-padded to {@code width}
 * characters ("k000000123" for width 10). Immutable; thread-safe.
 */
public final class KeySpace {
  /** The widest key the schema's {@code store.key VARCHAR(32)} holds. */
  public static final int MAX_WIDTH = 32;

  private final int count;
  private final int width;

  /**
   * REQUIRES: {@code count >= 1}, {@code width <= MAX_WIDTH}, and {@code width}
   * leaves room for "k" and every digit of {@code count - 1}.
   *
   * @throws IllegalArgumentException naming the option at fault otherwise
   */
  public KeySpace(int count, int width) {
    if (count < 1) {
      throw new IllegalArgumentException("--preload must be at least 1 key, got " + count);
    }
    final int needed = 1 + Integer.toString(count - 1).length();
    if (width < needed || width > MAX_WIDTH) {
      throw new IllegalArgumentException("--key-size must be between " + needed + " (\"k\" and the digits of "
          + (count - 1) + ") and " + MAX_WIDTH + " (the width of store.key), got " + width);
    }
    this.count = count;
    this.width = width;
  }

  public int count() {
    return count;
  }

  public int width() {
    return width;
  }

  /** Key number {@code index}. REQUIRES: {@code 0 <= index < count}. */
  public String key(int index) {
    final char[] chars = new char[width];
    Arrays.fill(chars, '0');
    chars[0] = 'k';
    int rest = index;
    for (int at = width - 1; rest > 0; at--) {
      chars[at] = (char) ('0' + rest % 10);
      rest /= 10;
    }
    return new String(chars);
  }
}
