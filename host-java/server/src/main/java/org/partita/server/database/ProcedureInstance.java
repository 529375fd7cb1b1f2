package org.partita.server.database;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.IdentityHashMap;
import java.util.Map;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.compiler.CompiledStatement;
import org.partita.server.compiler.ProcedureDeclarationsAccess;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * A site's instance of a Java procedure: the object, the executable form of
 * each of its SqlStmt fields (looked up by identity when the procedure queues
 * one), an invoker of its run method taking the arguments as an array, and
 * the name used in error messages. Confined to the site (or coordinator)
 * thread that created it.
 *
 * @param arguments a reusable array for the converted arguments of one call
 */
record ProcedureInstance(Procedure procedure, Map<SqlStmt, ExecutableStatement> statements, MethodHandle run,
                         String subject, Object[] arguments) {

  static ProcedureInstance create(CompiledProcedure compiled) {
    final String subject = "procedure " + compiled.name();
    if (compiled.isSql()) {
      return new ProcedureInstance(null, Map.of(), null, subject, null);
    }
    final Procedure procedure = ProcedureDeclarationsAccess.instantiate(compiled);
    final Map<SqlStmt, ExecutableStatement> statements = new IdentityHashMap<>();
    for (Map.Entry<String, SqlStmt> field : ProcedureDeclarationsAccess.statementFields(compiled, procedure).entrySet()) {
      final CompiledStatement s = compiled.statements().get(field.getKey());
      statements.put(field.getValue(), ExecutableStatement.of(s));
    }
    final int arity = compiled.parameterTypes().size();
    return new ProcedureInstance(procedure, statements, invoker(compiled, arity), subject, new Object[arity]);
  }

  /** run(...) as (Procedure, Object[]) -> Object, boxing the result. */
  private static MethodHandle invoker(CompiledProcedure compiled, int arity) {
    try {
      return MethodHandles.publicLookup().unreflect(compiled.run())
          .asSpreader(Object[].class, arity)
          .asType(MethodType.methodType(Object.class, Procedure.class, Object[].class));
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot call " + compiled.run() + ": " + e.getMessage(), e);
    }
  }
}
