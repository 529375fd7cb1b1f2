package org.partita.server.sysproc;

import java.util.List;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.proto.TableStats;
import org.partita.proto.TableStatsList;
import org.partita.server.catalog.Schema;
import org.partita.server.catalog.TableDef;
import org.partita.server.database.Database;
import org.partita.server.dispatch.ResponseHandler;

/**
 * {@code @Statistics TABLE}: one row per partition and table or
 * materialized view: rows and memory as the engine counts them. A replicated
 * table has a full copy, and a row, in every partition.
 */
final class StatsTables implements StatisticsSelector {
  private final Database database;

  StatsTables(Database database) {
    this.database = database;
  }

  @Override
  public boolean answer(boolean interval, ResponseHandler handler) {
    return EngineTableStats.offer(database, "@Statistics TABLE", this::table, handler);
  }

  private ClientResponse table(List<TableStatsList> partitions) {
    final Schema schema = database.catalog().schema();
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("PARTITION_ID", ValueType.INTEGER)
        .column("TABLE_NAME", ValueType.VARCHAR)
        .column("ROW_COUNT", ValueType.BIGINT)
        .column("BYTES_USED", ValueType.BIGINT)
        .column("BYTES_ALLOCATED", ValueType.BIGINT)
        .column("INDEX_BYTES", ValueType.BIGINT)
        .column("REPLICATED", ValueType.TINYINT);
    for (TableStatsList partition : partitions) {
      for (TableStats t : partition.getTablesList()) {
        final TableDef def = schema.table(t.getName()).orElse(null);
        table.row(partition.getPartitionId(), t.getName(), t.getRowCount(), t.getBytesUsed(), t.getBytesAllocated(),
            t.getIndexBytes(), def == null ? null : Answers.flag(!schema.isPartitioned(def)));
      }
    }
    return Answers.table(table.build());
  }
}
