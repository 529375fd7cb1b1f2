package org.partita.server.sysproc;

import org.partita.server.error.ServerException;
import java.util.Arrays;
import org.partita.server.txn.Invocation;

/**
 * The parameters of one system procedure call, with typed accessors whose
 * errors name the procedure, the position (1-based) and what was expected.
 * Immutable.
 */
final class Parameters {
  private final String procedure;
  private final Object[] values;
  private final Invocation invocation;

  /**
   * @param invocation the call as the client sent it, or null for a call made in process
   */
  Parameters(String procedure, Object[] values, Invocation invocation) {
    this.procedure = procedure;
    this.values = values == null ? new Object[0] : values;
    this.invocation = invocation;
  }

  /** The call as the client sent it; null when made in process. */
  Invocation invocation() {
    return invocation;
  }

  int count() {
    return values.length;
  }

  /**
   * Checks that between {@code min} and {@code max} parameters were given.
   *
   * @param usage the parameter list as documented, e.g. "(selector [, interval])"
   */
  void requireCount(int min, int max, String usage) {
    if (values.length >= min && values.length <= max) {
      return;
    }
    final String expected = min == max ? Integer.toString(min) : max == Integer.MAX_VALUE ? "at least " + min
        : min + " to " + max;
    throw ServerException.badParameter(procedure + " takes " + expected + " parameter(s) " + usage + ", got "
        + values.length);
  }

  /** Parameter {@code index} (0-based) as non-empty text. */
  String text(int index, String what) {
    final Object v = values[index];
    if (v instanceof String s && !s.isBlank()) {
      return s;
    }
    throw wrong(index, what, "non-empty VARCHAR text");
  }

  /** Parameter {@code index} (0-based) as a 0/1 flag, or {@code absent} when not given. */
  boolean flag(int index, String what, boolean absent) {
    if (index >= values.length) {
      return absent;
    }
    final Object v = values[index];
    if ((v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte)
        && (((Number) v).longValue() == 0 || ((Number) v).longValue() == 1)) {
      return ((Number) v).longValue() == 1;
    }
    throw wrong(index, what, "the integer 0 or 1");
  }

  /** Parameter {@code index} (0-based) as an integer between {@code min} and {@code max}. */
  int integer(int index, String what, int min, int max) {
    final Object v = values[index];
    if ((v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte)
        && ((Number) v).longValue() >= min && ((Number) v).longValue() <= max) {
      return ((Number) v).intValue();
    }
    throw wrong(index, what, "an integer from " + min + " to " + max);
  }

  /** The parameters from {@code index} (0-based) on. */
  Object[] from(int index) {
    return Arrays.copyOfRange(values, Math.min(index, values.length), values.length);
  }

  private ServerException wrong(int index, String what, String expected) {
    final Object v = values[index];
    final String got = v == null ? "NULL" : v.getClass().getSimpleName() + " " + v;
    return ServerException.badParameter(procedure + " parameter " + (index + 1) + " (" + what + ") must be "
        + expected + ", got " + got);
  }
}
