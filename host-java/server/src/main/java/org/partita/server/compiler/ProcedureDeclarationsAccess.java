package org.partita.server.compiler;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.Map;
import org.partita.server.planner.PlanningException;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/** Creates run-time instances of compiled Java procedures (one per site). */
public final class ProcedureDeclarationsAccess {
  private ProcedureDeclarationsAccess() {}

  public static Procedure instantiate(CompiledProcedure procedure) {
    try {
      return ProcedureCompiler.instantiate(procedure.procedureClass(), procedure.procedureClass().getName());
    } catch (PlanningException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /** The SqlStmt values of {@code instance}'s fields, by field name. */
  public static Map<String, SqlStmt> statementFields(CompiledProcedure procedure, Procedure instance) {
    return statementFields(procedure.procedureClass(), instance);
  }

  static Map<String, SqlStmt> statementFields(Class<? extends Procedure> type, Procedure instance) {
    final Map<String, SqlStmt> fields = new LinkedHashMap<>();
    for (Class<?> c = type; c != Procedure.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (f.getType() != SqlStmt.class) {
          continue;
        }
        try {
          f.setAccessible(true);
          fields.put(f.getName(), (SqlStmt) f.get(Modifier.isStatic(f.getModifiers()) ? null : instance));
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException("cannot read " + f, e);
        }
      }
    }
    return fields;
  }
}
