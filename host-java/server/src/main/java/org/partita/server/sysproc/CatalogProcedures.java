package org.partita.server.sysproc;

import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.compiler.ProcedurePartition;

/**
 * {@code @SystemCatalog PROCEDURES}: one row per user procedure, by name.
 * Clients route calls with the first four columns, whose names, types and
 * order are fixed: PROCEDURE_NAME, SINGLE_PARTITION (0/1),
 * PARTITION_PARAMETER (0-based, -1 if none), PARTITION_TYPE (plan.proto
 * ValueType number of the partitioning column, 0 if none).
 */
final class CatalogProcedures implements CatalogSelector {
  @Override
  public ResultTable build(CompiledCatalog catalog) {
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("PROCEDURE_NAME", ValueType.VARCHAR)
        .column("SINGLE_PARTITION", ValueType.TINYINT)
        .column("PARTITION_PARAMETER", ValueType.INTEGER)
        .column("PARTITION_TYPE", ValueType.INTEGER)
        .column("PARAMETER_COUNT", ValueType.INTEGER)
        .column("LANGUAGE", ValueType.VARCHAR)
        .column("PARTITION_TABLE", ValueType.VARCHAR)
        .column("PARTITION_COLUMN", ValueType.VARCHAR)
        .column("CLASS_NAME", ValueType.VARCHAR)
        .column("STATEMENT_COUNT", ValueType.INTEGER);
    for (CompiledProcedure p : catalog.procedures().values()) {
      final ProcedurePartition partition = p.partition();
      table.row(p.name(), Answers.flag(p.singlePartition()),
          partition == null ? -1 : partition.parameterIndex(),
          partition == null ? 0 : partition.columnType().getNumber(),
          p.parameterTypes().size(), p.isSql() ? "SQL" : "JAVA",
          partition == null ? null : partition.table(), partition == null ? null : partition.column(),
          p.isSql() ? null : p.procedureClass().getName(), p.statements().size());
    }
    return table.build();
  }
}
