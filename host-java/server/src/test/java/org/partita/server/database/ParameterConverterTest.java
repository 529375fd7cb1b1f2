package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.partita.proto.ValueType;
import org.partita.server.error.ServerException;

/** The rule the routing fast paths rely on: a Long is placed as it is exactly when partitionValue keeps it. */
class ParameterConverterTest {
  @Test
  void shouldKeepALongAsItIsWhereItIsCanonical() {
    for (ValueType type : ValueType.values()) {
      if (type == ValueType.UNRECOGNIZED || type == ValueType.VALUE_TYPE_UNSPECIFIED
          || type == ValueType.VALUE_TYPE_NULL) {
        continue;
      }
      final Long value = 42L;
      if (ParameterConverter.longIsCanonical(type)) {
        assertSame(value, ParameterConverter.partitionValue(value, type, "procedure P", 1), type.name());
      } else {
        assertThrows(ServerException.class, () -> ParameterConverter.partitionValue(value, type, "procedure P", 1),
            type.name());
      }
    }
  }

  @Test
  void shouldSayStringAndBinaryColumnsNeedTheirOwnTypes() {
    assertFalse(ParameterConverter.longIsCanonical(ValueType.VALUE_TYPE_VARCHAR));
    assertFalse(ParameterConverter.longIsCanonical(ValueType.VALUE_TYPE_VARBINARY));
    assertTrue(ParameterConverter.longIsCanonical(ValueType.VALUE_TYPE_BIGINT));
    assertTrue(ParameterConverter.longIsCanonical(ValueType.VALUE_TYPE_TIMESTAMP));
    assertEquals(7L, ParameterConverter.partitionValue(7L, ValueType.VALUE_TYPE_INTEGER, "procedure P", 1));
  }
}
