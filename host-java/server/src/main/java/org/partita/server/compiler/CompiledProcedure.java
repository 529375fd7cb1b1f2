package org.partita.server.compiler;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import org.partita.server.procedure.Procedure;

/**
 * A procedure ready to run: a Java class with its planned SqlStmt fields, or
 * a single SQL statement.
 *
 * @param partition where it runs, or null for multi-partition
 * @param procedureClass the class, or null for a SQL procedure
 * @param run the class's run method, or null
 * @param statements by SqlStmt field name (the SQL procedure's one is "SQL")
 * @param parameterTypes the run method's parameter types (SQL: from the statement)
 * @param readOnly true iff none of its statements writes (a Java procedure writes only through them)
 */
public record CompiledProcedure(
    String name,
    ProcedurePartition partition,
    Class<? extends Procedure> procedureClass,
    Method run,
    Map<String, CompiledStatement> statements,
    List<Class<?>> parameterTypes,
    boolean readOnly) {

  public static final String SQL_STATEMENT = "SQL";

  /** A procedure whose read-only flag follows from its statements (computed once, not per call). */
  public CompiledProcedure(String name, ProcedurePartition partition, Class<? extends Procedure> procedureClass,
      Method run, Map<String, CompiledStatement> statements, List<Class<?>> parameterTypes) {
    this(name, partition, procedureClass, run, statements, parameterTypes,
        statements.values().stream().allMatch(s -> s.planned().readOnly()));
  }

  public boolean singlePartition() {
    return partition != null;
  }

  public boolean isSql() {
    return procedureClass == null;
  }

}
