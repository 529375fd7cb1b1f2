package org.partita.client.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.partita.client.ResultTable;
import org.partita.client.proto.ProcedureRouting;

/**
 * The routing table of one catalog version: procedure name → route, names
 * matched case-insensitively. Immutable; looking up a name spelt as declared
 * allocates nothing.
 */
public final class Routes {
  public static final Routes EMPTY = new Routes(Map.of(), -1);

  private final Map<String, ProcedureRoute> exact;
  private final Map<String, ProcedureRoute> folded;
  private final long catalogVersion;

  private Routes(Map<String, ProcedureRoute> exact, long catalogVersion) {
    this.exact = exact;
    final Map<String, ProcedureRoute> lower = new HashMap<>();
    exact.forEach((name, route) -> lower.put(name.toLowerCase(Locale.ROOT), route));
    this.folded = lower;
    this.catalogVersion = catalogVersion;
  }

  /** The routes a LoginResponse announced. */
  public static Routes fromLogin(List<ProcedureRouting> procedures, long catalogVersion) {
    final Map<String, ProcedureRoute> byName = new HashMap<>();
    for (ProcedureRouting p : procedures) {
      byName.put(p.getName(), new ProcedureRoute(p.getName(), p.getSinglePartition(), p.getPartitionParameter(),
          p.getPartitionType()));
    }
    return new Routes(byName, catalogVersion);
  }

  /**
   * The routes in a {@code @SystemCatalog PROCEDURES} table (columns
   * PROCEDURE_NAME, SINGLE_PARTITION, PARTITION_PARAMETER, PARTITION_TYPE).
   *
   * @throws IllegalArgumentException when a column is missing or has another type
   */
  public static Routes fromTable(ResultTable table, long catalogVersion) {
    final int name = table.columnIndex("PROCEDURE_NAME");
    final int single = table.columnIndex("SINGLE_PARTITION");
    final int parameter = table.columnIndex("PARTITION_PARAMETER");
    final int type = table.columnIndex("PARTITION_TYPE");
    final Map<String, ProcedureRoute> byName = new HashMap<>();
    table.resetRowPosition();
    while (table.advanceRow()) {
      final String procedure = table.getString(name);
      final boolean singlePartition = table.getLong(single) != 0;
      final long index = table.getLong(parameter);
      final long typeCode = table.getLong(type);
      if (procedure != null) {
        byName.put(procedure, new ProcedureRoute(procedure, singlePartition, (int) index, (int) typeCode));
      }
    }
    table.resetRowPosition();
    return new Routes(byName, catalogVersion);
  }

  /** The route of {@code procedure} (any letter case), or null when unknown. */
  public ProcedureRoute find(String procedure) {
    final ProcedureRoute r = exact.get(procedure);
    return r != null ? r : folded.get(procedure.toLowerCase(Locale.ROOT));
  }

  public long catalogVersion() {
    return catalogVersion;
  }

  public int size() {
    return exact.size();
  }
}
