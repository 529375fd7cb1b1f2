package org.partita.server.compiler.ddl;

/**
 * A DDL statement that Partita parses itself because JSqlParser does not know it: partitioning,
 * procedures and every DROP. Produced by {@link PartitaStatementParser}; immutable.
 */
public sealed interface PartitaStatement
    permits PartitionTable, CreateProcedureFromClass, CreateProcedureAs, DropObject, CreateRole,
        GrantExecute {

  /** Where the statement starts in the file. */
  SourcePosition position();
}
