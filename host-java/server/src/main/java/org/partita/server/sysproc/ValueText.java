package org.partita.server.sysproc;

import java.time.Instant;
import java.util.HexFormat;
import org.partita.proto.Value;
import org.partita.proto.ValueType;

/** A constant as SQL literal text (column defaults in @SystemCatalog COLUMNS). */
final class ValueText {
  private ValueText() {}

  static String of(Value v) {
    return switch (v.getValueCase()) {
      case INT_VALUE -> intText(v);
      case FLOAT_VALUE -> Double.toString(v.getFloatValue());
      case DECIMAL_VALUE -> v.getDecimalValue();
      case STRING_VALUE -> "'" + v.getStringValue().replace("'", "''") + "'";
      case BYTES_VALUE -> "X'" + HexFormat.of().formatHex(v.getBytesValue().toByteArray()) + "'";
      default -> "NULL";
    };
  }

  private static String intText(Value v) {
    final long n = v.getIntValue();
    if (v.getType() == ValueType.VALUE_TYPE_BOOLEAN) {
      return n != 0 ? "TRUE" : "FALSE";
    }
    if (v.getType() == ValueType.VALUE_TYPE_TIMESTAMP) {
      final Instant t = Instant.ofEpochSecond(Math.floorDiv(n, 1_000_000L), Math.floorMod(n, 1_000_000L) * 1000L);
      return "TIMESTAMP '" + t + "'";
    }
    return Long.toString(n);
  }
}
