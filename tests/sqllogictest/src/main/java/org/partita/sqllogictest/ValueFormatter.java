package org.partita.sqllogictest;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Formats one result value the way SQLite's reference runner ({@code slt_sqlite.c}) does, by the
 * column's type letter in the {@code query} header, not by the engine's column type:
 *
 * <ul>
 *   <li>NULL, in any column: {@code NULL}.
 *   <li>{@code I}: the value as a C {@code int} ({@code sqlite3_column_int}): reals and decimals
 *       truncated toward zero, then the low 32 bits; text converted from its leading integer
 *       digits (none: 0); booleans 1 and 0.
 *   <li>{@code R}: the value as a double ({@code sqlite3_column_double}) printed with {@code %.3f};
 *       text converted from its leading number (none: 0.0).
 *   <li>{@code T}: the value's text: strings as they are; integers in decimal; reals as SQLite
 *       prints them ({@code %!.15g}: 15 significant digits, at least one decimal, {@code 1.0e+20});
 *       decimals as an integer when they have no fraction, else as a real (SQLite's NUMERIC
 *       affinity); binary as its raw bytes. An empty text is {@code (empty)}. Then every byte of
 *       the UTF-8 text outside printable ASCII (below space or above {@code ~}) becomes {@code @}.
 * </ul>
 *
 * <p>Accepted value classes: {@link Long}, {@link Integer}, {@link Short}, {@link Byte}, {@link
 * Double}, {@link Float}, {@link BigDecimal}, {@link Boolean}, {@link String}, {@code byte[]};
 * anything else is formatted from its {@code toString()}. Stateless and thread-safe.
 */
public final class ValueFormatter {

  private static final String NULL_TEXT = "NULL";
  private static final String EMPTY_TEXT = "(empty)";
  private static final int REAL_TEXT_DIGITS = 15;
  private static final Pattern LEADING_INTEGER = Pattern.compile("^\\s*([+-]?\\d+)");
  private static final Pattern LEADING_REAL =
      Pattern.compile("^\\s*([+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?)");

  private ValueFormatter() {}

  /**
   * Returns {@code value} formatted for a column of type letter {@code type}.
   *
   * <p>REQUIRES: {@code type} is one of {@code I}, {@code R}, {@code T}.
   */
  public static String format(Object value, char type) {
    if (value == null) {
      return NULL_TEXT;
    }
    switch (type) {
      case 'I':
        return Integer.toString((int) toLong(value));
      case 'R':
        return formatReal(toDouble(value));
      case 'T':
        return printable(textBytes(value));
      default:
        throw new IllegalArgumentException("unknown column type letter '" + type + "'");
    }
  }

  /** {@code %.3f} as SQLite prints it: no negative zero, {@code Inf} for infinities. */
  static String formatReal(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "Inf" : "-Inf";
    }
    final double positiveZeroed = value == 0.0 ? 0.0 : value;
    return String.format(Locale.ROOT, "%.3f", positiveZeroed);
  }

  /** The value as {@code sqlite3_column_int64} sees it: truncated toward zero, saturated. */
  static long toLong(Object value) {
    if (value instanceof Long || value instanceof Integer || value instanceof Short
        || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof BigDecimal) {
      final BigDecimal truncated = ((BigDecimal) value).setScale(0, RoundingMode.DOWN);
      return truncated.max(BigDecimal.valueOf(Long.MIN_VALUE))
          .min(BigDecimal.valueOf(Long.MAX_VALUE))
          .longValue();
    }
    if (value instanceof Number) {
      return (long) ((Number) value).doubleValue();
    }
    if (value instanceof Boolean) {
      return ((Boolean) value) ? 1 : 0;
    }
    final Matcher matcher = LEADING_INTEGER.matcher(rawText(value));
    if (!matcher.find()) {
      return 0;
    }
    final BigDecimal parsed = new BigDecimal(matcher.group(1));
    return toLong(parsed);
  }

  /** The value as {@code sqlite3_column_double} sees it. */
  static double toDouble(Object value) {
    if (value instanceof Number) {
      return ((Number) value).doubleValue();
    }
    if (value instanceof Boolean) {
      return ((Boolean) value) ? 1.0 : 0.0;
    }
    final Matcher matcher = LEADING_REAL.matcher(rawText(value));
    return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0.0;
  }

  /** The value as {@code sqlite3_column_text} sees it, before {@code (empty)} and {@code @}. */
  static String toText(Object value) {
    if (value instanceof Double || value instanceof Float) {
      return realText(((Number) value).doubleValue());
    }
    if (value instanceof BigDecimal) {
      return decimalText((BigDecimal) value);
    }
    if (value instanceof Boolean) {
      return ((Boolean) value) ? "1" : "0";
    }
    return rawText(value);
  }

  /** The bytes of the value's text: binary as it is, anything else as UTF-8. */
  private static byte[] textBytes(Object value) {
    if (value instanceof byte[]) {
      return (byte[]) value;
    }
    return toText(value).getBytes(StandardCharsets.UTF_8);
  }

  private static String rawText(Object value) {
    if (value instanceof byte[]) {
      return new String((byte[]) value, StandardCharsets.ISO_8859_1);
    }
    return value.toString();
  }

  private static String decimalText(BigDecimal value) {
    final BigDecimal stripped = value.stripTrailingZeros();
    if (stripped.scale() <= 0 && stripped.precision() - stripped.scale() <= 18) {
      return stripped.toBigInteger().toString();
    }
    return realText(value.doubleValue());
  }

  /** A real as SQLite's {@code %!.15g} prints it. */
  static String realText(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "Inf" : "-Inf";
    }
    if (value == 0.0) {
      return "0.0";
    }
    final BigDecimal rounded =
        new BigDecimal(value).round(new MathContext(REAL_TEXT_DIGITS, RoundingMode.HALF_EVEN));
    final int exponent = rounded.precision() - rounded.scale() - 1;
    if (exponent < -4 || exponent >= REAL_TEXT_DIGITS) {
      final BigDecimal mantissa = rounded.movePointLeft(exponent).stripTrailingZeros();
      final String sign = exponent < 0 ? "-" : "+";
      final String digits = String.format(Locale.ROOT, "%02d", Math.abs(exponent));
      return withDecimalPoint(mantissa.toPlainString()) + "e" + sign + digits;
    }
    return withDecimalPoint(rounded.stripTrailingZeros().toPlainString());
  }

  private static String withDecimalPoint(String digits) {
    return digits.indexOf('.') >= 0 ? digits : digits + ".0";
  }

  /** {@code (empty)} for no bytes; every byte outside printable ASCII becomes {@code @}. */
  static String printable(byte[] bytes) {
    if (bytes.length == 0) {
      return EMPTY_TEXT;
    }
    final StringBuilder out = new StringBuilder(bytes.length);
    for (final byte b : bytes) {
      out.append(b < ' ' || b > '~' ? '@' : (char) b);
    }
    return out.toString();
  }
}
