package org.partita.server.compiler;

import org.partita.server.compiler.ddl.SourcePosition;

/**
 * A CREATE PROCEDURE as written, kept so that procedures can be planned again
 * when the schema changes.
 *
 * @param name the procedure's name
 * @param className the class for FROM CLASS, else null
 * @param sql the statement for AS, else null
 * @param partitionTable PARTITION ON TABLE, or null for a multi-partition procedure
 * @param partitionColumn PARTITION ON ... COLUMN
 * @param parameterIndex PARTITION ON ... PARAMETER (0-based)
 */
public record ProcedureDeclaration(String name, String className, String sql, String partitionTable,
                                   String partitionColumn, int parameterIndex, SourcePosition position) {}
