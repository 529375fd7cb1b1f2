package org.partita.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;

/**
 * Converts the JSON array of a call's parameters to the Java values the
 * dispatcher takes (docs/http-api.md, "Parameters"): integers to Long,
 * numbers with a fraction or exponent to exact BigDecimal, strings to String,
 * null to null, true/false to 1/0, and the typed objects of
 * {@link TypedParameter}. Anything else is refused with a message naming the
 * parameter ("Parameters[2]: nested arrays are not supported"). Stateless.
 */
final class JsonParameters {
  private static final BigDecimal LARGEST = new BigDecimal(Double.MAX_VALUE);
  private static final BigDecimal SMALLEST = new BigDecimal(Double.MIN_VALUE);

  private JsonParameters() {}

  /**
   * Converts {@code parameters}, which must be a JSON array.
   *
   * @throws RequestException (400) naming the first parameter that cannot be converted
   */
  static Object[] convert(JsonNode parameters) {
    if (!parameters.isArray()) {
      throw RequestException.badRequest("Parameters must be a JSON array, not " + describe(parameters));
    }
    final Object[] out = new Object[parameters.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = convertOne(parameters.get(i), "Parameters[" + i + "]");
    }
    return out;
  }

  private static Object convertOne(JsonNode value, String where) {
    switch (value.getNodeType()) {
      case NULL:
        return null;
      case BOOLEAN:
        return value.booleanValue() ? 1L : 0L;
      case STRING:
        return value.textValue();
      case NUMBER:
        return number(value, where);
      case OBJECT:
        return TypedParameter.convert(value, where);
      case ARRAY:
        throw RequestException.badRequest(where + ": nested arrays are not supported");
      default:
        throw RequestException.badRequest(where + ": " + describe(value) + " is not a parameter value");
    }
  }

  private static Object number(JsonNode value, String where) {
    if (value.isIntegralNumber()) {
      if (!value.canConvertToLong()) {
        throw RequestException.badRequest(where + ": integer " + value.bigIntegerValue()
            + " is out of BIGINT range; for a DECIMAL parameter write it as {\"decimal\": \"" + value.bigIntegerValue()
            + "\"}");
      }
      return value.longValue();
    }
    return checkedDecimal(value.decimalValue(), where);
  }

  /**
   * {@code d} when its magnitude is zero or lies within the range of a FLOAT
   * (so that no conversion overflows, underflows to zero unnoticed, or works
   * on absurd exponents such as 1e999999999).
   */
  static BigDecimal checkedDecimal(BigDecimal d, String where) {
    if (d.signum() == 0) {
      return BigDecimal.ZERO;
    }
    final BigDecimal magnitude = d.abs();
    if (magnitude.compareTo(LARGEST) > 0 || magnitude.compareTo(SMALLEST) < 0) {
      throw RequestException.badRequest(where + ": " + d + " is out of range (a nonzero number's magnitude must lie"
          + " between " + Double.MIN_VALUE + " and " + Double.MAX_VALUE + ")");
    }
    return d;
  }

  /** "a string", "an object", ...: for messages. */
  static String describe(JsonNode node) {
    switch (node.getNodeType()) {
      case ARRAY:
        return "an array";
      case OBJECT:
        return "an object";
      case STRING:
        return "a string";
      case NUMBER:
        return "a number";
      case BOOLEAN:
        return node.booleanValue() ? "true" : "false";
      case NULL:
        return "null";
      default:
        return "a " + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
