package org.partita.server.database;

import java.util.IdentityHashMap;
import java.util.Map;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.compiler.CompiledStatement;
import org.partita.server.compiler.ProcedureDeclarationsAccess;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * A site's instance of a Java procedure and the executable form of each of
 * its SqlStmt fields (looked up by identity when the procedure queues one).
 */
record ProcedureInstance(Procedure procedure, Map<SqlStmt, ExecutableStatement> statements) {

  static ProcedureInstance create(CompiledProcedure compiled) {
    if (compiled.isSql()) {
      return new ProcedureInstance(null, Map.of());
    }
    final Procedure procedure = ProcedureDeclarationsAccess.instantiate(compiled);
    final Map<SqlStmt, ExecutableStatement> statements = new IdentityHashMap<>();
    for (Map.Entry<String, SqlStmt> field : ProcedureDeclarationsAccess.statementFields(compiled, procedure).entrySet()) {
      final CompiledStatement s = compiled.statements().get(field.getKey());
      statements.put(field.getValue(), ExecutableStatement.of(s));
    }
    return new ProcedureInstance(procedure, statements);
  }
}
