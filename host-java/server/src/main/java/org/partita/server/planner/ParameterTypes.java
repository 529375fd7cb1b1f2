package org.partita.server.planner;

import java.util.ArrayList;
import java.util.List;
import org.partita.proto.ValueType;

/**
 * The types of a statement's {@code ?} parameters, inferred from where each is
 * used: compared with or assigned to a column, it takes the column's type.
 */
final class ParameterTypes {
  private final List<ValueType> types = new ArrayList<>();

  /** Records a use of parameter {@code index}; a known type wins over none. */
  void note(int index, ValueType type) {
    while (types.size() <= index) {
      types.add(ValueType.VALUE_TYPE_UNSPECIFIED);
    }
    if (types.get(index) == ValueType.VALUE_TYPE_UNSPECIFIED && !TypeRules.isNull(type)) {
      types.set(index, type);
    }
  }

  ValueType get(int index) {
    return index < types.size() ? types.get(index) : ValueType.VALUE_TYPE_UNSPECIFIED;
  }

  int count() {
    return types.size();
  }

  /** The final types; REQUIRES: every parameter's type is known. */
  List<ValueType> resolved() throws PlanningException {
    for (int i = 0; i < types.size(); i++) {
      if (types.get(i) == ValueType.VALUE_TYPE_UNSPECIFIED) {
        throw new PlanningException(
            "cannot infer the type of parameter " + (i + 1) + " (?): compare it with a column or write CAST(? AS type)");
      }
    }
    return List.copyOf(types);
  }
}
