package org.partita.client;

/**
 * SQL value types with the numbers used on every wire and in every binary
 * table (the numbers of {@code ValueType} in {@code proto/plan.proto}).
 */
public enum ValueType {
  NULL(1, 0),
  TINYINT(2, 1),
  SMALLINT(3, 2),
  INTEGER(4, 4),
  BIGINT(5, 8),
  FLOAT(6, 8),
  DECIMAL(7, 16),
  VARCHAR(8, -1),
  VARBINARY(9, -1),
  TIMESTAMP(10, 8),
  BOOLEAN(11, 1);

  private static final ValueType[] BY_CODE = new ValueType[12];

  static {
    for (ValueType type : values()) {
      BY_CODE[type.code] = type;
    }
  }

  private final int code;
  private final int fixedSize;

  ValueType(int code, int fixedSize) {
    this.code = code;
    this.fixedSize = fixedSize;
  }

  /** The type's number in proto/plan.proto and in binary tables. */
  public int code() {
    return code;
  }

  /** Bytes of an encoded value, or -1 for length-prefixed types. */
  public int fixedSize() {
    return fixedSize;
  }

  public boolean isInteger() {
    return this == TINYINT || this == SMALLINT || this == INTEGER || this == BIGINT;
  }

  public boolean isNumeric() {
    return isInteger() || this == FLOAT || this == DECIMAL;
  }

  /** The type with number {@code code}, or null when there is none. */
  public static ValueType fromCode(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }
}
