package org.partita.server.database;

import java.math.BigDecimal;
import java.util.List;
import org.partita.proto.Value;
import org.partita.proto.ValueType;
import org.partita.server.planner.PlannedStatement;
import org.partita.server.procedure.ParameterBuffer;
import org.partita.server.topology.PartitionMap;

/**
 * The partition a planned statement (or one row of a routed INSERT) belongs
 * to: its partitioning value — a call parameter or a constant of the plan —
 * in the canonical form of PartitionHash, placed by the partition map.
 */
final class StatementPartitions {
  private StatementPartitions() {}

  /** The canonical partitioning value of a single-partition statement's call. */
  static Object key(PlannedStatement planned, Object[] parameters, String name) {
    return key(planned.partitionParameter(), planned.partitionValue(), planned.parameterTypes(), parameters, name);
  }

  static int partition(PlannedStatement planned, Object[] parameters, String name, PartitionMap map) {
    return map.partitionOf(key(planned, parameters, name));
  }

  /**
   * {@link #partition} of queued statement {@code statement} of {@code
   * parameters}; a partitioning parameter added as a long for a column that
   * is not a string or binary is placed without boxing it.
   */
  static int partition(PlannedStatement planned, ParameterBuffer parameters, int statement, String name,
      PartitionMap map) {
    final int index = planned.partitionParameter();
    final int at = parameters.start(statement) + index;
    if (index < 0 || at >= parameters.end(statement)) {
      return map.partitionOf(key(index, planned.partitionValue(), planned.parameterTypes(), null, name));
    }
    final ValueType type = planned.parameterTypes().get(index);
    if (parameters.isLong(at) && ParameterConverter.longIsCanonical(type)) {
      return map.partitionOfLong(parameters.longAt(at));
    }
    return map.partitionOf(ParameterConverter.partitionValue(parameters.valueAt(at), type, name, index + 1));
  }

  /**
   * The canonical value of parameter {@code parameterIndex} (converted to its
   * declared type), or of {@code constant} when the index is negative. A
   * missing parameter reads as NULL here; the parameter count is checked when
   * the call is written.
   */
  static Object key(int parameterIndex, Value constant, List<ValueType> types, Object[] parameters, String name) {
    if (parameterIndex >= 0) {
      final Object value = parameters != null && parameters.length > parameterIndex ? parameters[parameterIndex] : null;
      return ParameterConverter.partitionValue(value, types.get(parameterIndex), name, parameterIndex + 1);
    }
    return canonical(constant);
  }

  /** The canonical partitioning value of a constant. */
  private static Object canonical(Value v) {
    if (v == null) {
      return null;
    }
    return switch (v.getValueCase()) {
      case INT_VALUE -> v.getIntValue();
      case STRING_VALUE -> v.getStringValue();
      case BYTES_VALUE -> v.getBytesValue().toByteArray();
      case DECIMAL_VALUE -> new BigDecimal(v.getDecimalValue()).longValueExact();
      case FLOAT_VALUE -> (long) v.getFloatValue();
      default -> null;
    };
  }
}
