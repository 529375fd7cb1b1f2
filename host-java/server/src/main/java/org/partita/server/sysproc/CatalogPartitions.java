package org.partita.server.sysproc;

import java.util.stream.Collectors;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.database.Database;
import org.partita.server.topology.PartitionMap;

/**
 * {@code @SystemCatalog PARTITIONS}: the partition map, one row per
 * partition: its leader host, its replicas, its epoch, how many of the
 * 16,384 buckets it holds, and the map's topology version (the same on
 * every row; clients compare it with InvocationResponse.topology_version).
 */
final class CatalogPartitions implements CatalogSelector {
  private final Database database;

  CatalogPartitions(Database database) {
    this.database = database;
  }

  @Override
  public ResultTable build(CompiledCatalog catalog) {
    final PartitionMap map = database.partitionMap();
    final int[] buckets = new int[map.partitionCount()];
    for (int b = 0; b < PartitionMap.BUCKETS; b++) {
      buckets[map.partitionOfBucket(b)]++;
    }
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("PARTITION_ID", ValueType.INTEGER)
        .column("LEADER_HOST_ID", ValueType.INTEGER)
        .column("REPLICA_HOST_IDS", ValueType.VARCHAR)
        .column("EPOCH", ValueType.BIGINT)
        .column("BUCKETS", ValueType.INTEGER)
        .column("TOPOLOGY_VERSION", ValueType.BIGINT);
    for (int p = 0; p < map.partitionCount(); p++) {
      final PartitionMap.Replicas r = map.replicas(p);
      table.row(p, r.leaderHost(), r.replicaHosts().stream().map(String::valueOf).collect(Collectors.joining(",")),
          r.epoch(), buckets[p], map.version());
    }
    return table.build();
  }
}
