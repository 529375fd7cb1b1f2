package org.partita.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;

/**
 * Parameter values JSON has no literal for, written as an object with exactly
 * one key (docs/http-api.md, "Typed values"):
 *
 * <ul>
 *   <li>{@code {"hex": "0a1b"}} and {@code {"base64": "Chs="}}: VARBINARY, to byte[];
 *   <li>{@code {"timestamp": "2026-11-22T10:00:00Z"}} (ISO-8601; without an offset
 *       the time is UTC; "2026-11-22 10:00:00.5" and "2026-11-22" also read) or
 *       {@code {"timestamp": 1795341600000000}} (µs since the epoch): TIMESTAMP, to Instant;
 *   <li>{@code {"decimal": "12.345"}}: an exact number given as text (for JSON
 *       writers that would round it), to BigDecimal.
 * </ul>
 *
 * Stateless.
 */
final class TypedParameter {
  private static final int MAX_DECIMAL_TEXT = 1000;

  private TypedParameter() {}

  /**
   * Converts the object {@code value}.
   *
   * @throws RequestException (400) naming {@code where} and what was wrong
   */
  static Object convert(JsonNode value, String where) {
    if (value.size() != 1) {
      throw RequestException.badRequest(where + ": an object parameter must have exactly one key (hex, base64,"
          + " timestamp or decimal); found " + value.size());
    }
    final Iterator<Map.Entry<String, JsonNode>> fields = value.fields();
    final Map.Entry<String, JsonNode> field = fields.next();
    final String at = where + "." + field.getKey();
    switch (field.getKey()) {
      case "hex":
        return hex(text(field.getValue(), at), at);
      case "base64":
        return base64(text(field.getValue(), at), at);
      case "timestamp":
        return timestamp(field.getValue(), at);
      case "decimal":
        return decimal(text(field.getValue(), at), at);
      default:
        throw RequestException.badRequest(where + ": unknown typed value \"" + field.getKey()
            + "\"; expected hex, base64, timestamp or decimal");
    }
  }

  private static String text(JsonNode value, String at) {
    if (!value.isTextual()) {
      throw RequestException.badRequest(at + ": must be a string, not " + JsonParameters.describe(value));
    }
    return value.textValue();
  }

  private static byte[] hex(String text, String at) {
    if (text.length() % 2 != 0) {
      throw RequestException.badRequest(at + ": odd number of hex digits (" + text.length() + ")");
    }
    final byte[] out = new byte[text.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) (hexDigit(text, 2 * i, at) << 4 | hexDigit(text, 2 * i + 1, at));
    }
    return out;
  }

  private static int hexDigit(String text, int index, String at) {
    final int digit = Character.digit(text.charAt(index), 16);
    if (digit < 0) {
      throw RequestException.badRequest(at + ": '" + text.charAt(index) + "' at offset " + index
          + " is not a hex digit");
    }
    return digit;
  }

  private static byte[] base64(String text, String at) {
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw RequestException.badRequest(at + ": not valid base64 (" + e.getMessage() + ")");
    }
  }

  private static Instant timestamp(JsonNode value, String at) {
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      final long micros = value.longValue();
      return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }
    if (!value.isTextual()) {
      throw RequestException.badRequest(at + ": must be an ISO-8601 string or an integer of microseconds since"
          + " the epoch, not " + (value.isNumber() ? value.asText() : JsonParameters.describe(value)));
    }
    final Instant instant = parseInstant(value.textValue(), at);
    if (instant.getNano() % 1000 != 0) {
      throw RequestException.badRequest(at + ": \"" + value.textValue() + "\" is more precise than a microsecond");
    }
    try {
      Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
    } catch (ArithmeticException e) {
      throw RequestException.badRequest(at + ": \"" + value.textValue() + "\" is out of TIMESTAMP range");
    }
    return instant;
  }

  private static Instant parseInstant(String text, String at) {
    final String iso = text.length() > 10 && text.charAt(10) == ' '
        ? text.substring(0, 10) + 'T' + text.substring(11) : text;
    try {
      if (iso.length() == 10) {
        return LocalDate.parse(iso).atStartOfDay(ZoneOffset.UTC).toInstant();
      }
      if (hasOffset(iso)) {
        return OffsetDateTime.parse(iso).toInstant();
      }
      return LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC);
    } catch (DateTimeException e) {
      throw RequestException.badRequest(at + ": \"" + text + "\" is not an ISO-8601 date-time such as"
          + " 2026-11-22T10:00:00Z");
    }
  }

  // An offset follows the time: "Z", "+01:00" or "-05:00" after position 10 (the date).
  private static boolean hasOffset(String iso) {
    if (iso.endsWith("Z")) {
      return true;
    }
    final int time = iso.indexOf('T');
    return time > 0 && (iso.indexOf('+', time) > 0 || iso.indexOf('-', time) > 0);
  }

  private static BigDecimal decimal(String text, String at) {
    if (text.length() > MAX_DECIMAL_TEXT) {
      throw RequestException.badRequest(at + ": " + text.length() + " characters is longer than the "
          + MAX_DECIMAL_TEXT + " a number may have");
    }
    try {
      return JsonParameters.checkedDecimal(new BigDecimal(text), at);
    } catch (NumberFormatException e) {
      throw RequestException.badRequest(at + ": \"" + text + "\" is not a decimal number");
    }
  }
}
