package org.partita.server.database;

import org.partita.proto.Value;

/** The canonical partitioning value (PartitionHash) of a constant in a plan. */
final class ConstantKeys {
  private ConstantKeys() {}

  static Object canonical(Value v) {
    if (v == null) {
      return null;
    }
    return switch (v.getValueCase()) {
      case INT_VALUE -> v.getIntValue();
      case STRING_VALUE -> v.getStringValue();
      case BYTES_VALUE -> v.getBytesValue().toByteArray();
      case DECIMAL_VALUE -> new java.math.BigDecimal(v.getDecimalValue()).longValueExact();
      case FLOAT_VALUE -> (long) v.getFloatValue();
      default -> null;
    };
  }
}
