package org.partita.server.database;

import org.partita.server.error.ServerException;
import java.util.ArrayList;
import java.util.List;
import org.partita.client.ResultTable;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.procedure.ProcedureBinding;
import org.partita.server.procedure.ProcedureContext;
import org.partita.server.txn.Invocation;

/** Calls a Java procedure's run method and turns its return value into result tables. */
final class Invocations {
  private Invocations() {}

  /**
   * Runs the procedure with the arguments decoded from {@code invocation}
   * straight into the instance's reused array, and returns what its
   * {@code run} returned as it is ({@link #results} makes tables of it).
   */
  static Object invokeJava(CompiledProcedure procedure, ProcedureInstance instance, ProcedureContext context,
      Invocation invocation) throws Throwable {
    if (invocation.parameterCount() != procedure.parameterTypes().size()) {
      return invoke(procedure, instance, context, invocation.parameters()); // refused, naming the counts
    }
    final Object[] arguments = instance.arguments();
    try {
      invocation.parametersInto(arguments);
    } catch (RuntimeException e) {
      java.util.Arrays.fill(arguments, null);
      throw e;
    }
    return invoke(procedure, instance, context, arguments);
  }

  /**
   * Runs the procedure with {@code arguments} and returns its result tables.
   * REQUIRES: {@code arguments} is not another call's reused array (it may be this instance's own).
   */
  static List<ResultTable> runJava(CompiledProcedure procedure, ProcedureInstance instance, ProcedureContext context,
      Object[] arguments) throws Throwable {
    return results(invoke(procedure, instance, context, arguments), context);
  }

  /** What {@code run} returned. REQUIRES: {@code arguments} as runJava(..., Object[]) requires. */
  private static Object invoke(CompiledProcedure procedure, ProcedureInstance instance, ProcedureContext context,
      Object[] arguments) throws Throwable {
    final List<Class<?>> types = procedure.parameterTypes();
    final int given = arguments == null ? 0 : arguments.length;
    if (given != types.size()) {
      throw ServerException.badParameter("procedure " + procedure.name() + " takes " + types.size()
          + " parameter(s), " + given + " given");
    }
    final Object[] converted = instance.arguments();
    for (int i = 0; i < given; i++) {
      converted[i] = ParameterConverter.argument(arguments[i], types.get(i), instance.subject(), i + 1);
    }
    if (context instanceof SinglePartitionContext sp) {
      sp.bindInstance(instance);
    } else {
      ProcedureBinding.bind(instance.procedure(), context);
    }
    try {
      return (Object) instance.run().invokeExact(instance.procedure(), converted);
    } finally {
      java.util.Arrays.fill(converted, null);
    }
  }

  /**
   * The result tables of what a procedure's {@code run} returned (null,
   * a Long, a table or tables), each a copy when {@code context} re-points
   * it at its next batch.
   */
  static List<ResultTable> results(Object result, ProcedureContext context) {
    final SinglePartitionContext reusing = context instanceof SinglePartitionContext sp ? sp : null;
    if (result == null) {
      return List.of();
    }
    if (result instanceof Long l) {
      return List.of(ResultSets.longTable(ResultSets.PROCEDURE_RESULT, l));
    }
    if (result instanceof ResultTable t) {
      return List.of(owned(t, reusing));
    }
    final List<ResultTable> tables = new ArrayList<>();
    for (ResultTable t : (ResultTable[]) result) {
      tables.add(owned(t, reusing));
    }
    return tables;
  }

  /** {@code t}, or a copy of it when it is a table the site re-points at its next batch's results. */
  private static ResultTable owned(ResultTable t, SinglePartitionContext reusing) {
    return reusing != null && t != null && reusing.reuses(t) ? t.view() : t;
  }
}
