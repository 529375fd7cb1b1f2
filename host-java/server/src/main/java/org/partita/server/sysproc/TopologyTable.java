package org.partita.server.sysproc;

import java.util.stream.Collectors;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.topology.PartitionMap;

/**
 * The partition map as a table, one row per partition: its leader host
 * (and that host's client address when it is this host), its replicas, its
 * epoch, how many of the 16,384 buckets it holds, and the map's topology
 * version (the same on every row; clients compare it with
 * InvocationResponse.topology_version). Shared by {@code @SystemCatalog
 * PARTITIONS} and {@code @Statistics TOPO}. Stateless.
 */
final class TopologyTable {
  private TopologyTable() {}

  static ResultTable build(PartitionMap map, ServerIdentity self) {
    final int[] buckets = new int[map.partitionCount()];
    for (int b = 0; b < PartitionMap.BUCKETS; b++) {
      buckets[map.partitionOfBucket(b)]++;
    }
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("PARTITION_ID", ValueType.INTEGER)
        .column("LEADER_HOST_ID", ValueType.INTEGER)
        .column("LEADER_ADDRESS", ValueType.VARCHAR)
        .column("REPLICA_HOST_IDS", ValueType.VARCHAR)
        .column("EPOCH", ValueType.BIGINT)
        .column("BUCKETS", ValueType.INTEGER)
        .column("TOPOLOGY_VERSION", ValueType.BIGINT);
    for (int p = 0; p < map.partitionCount(); p++) {
      final PartitionMap.Replicas r = map.replicas(p);
      table.row(p, r.leaderHost(), leaderAddress(r.leaderHost(), self),
          r.replicaHosts().stream().map(String::valueOf).collect(Collectors.joining(",")),
          r.epoch(), buckets[p], map.version());
    }
    return table.build();
  }

  // Other hosts' addresses are not known to a host yet: NULL for them.
  private static String leaderAddress(int leaderHost, ServerIdentity self) {
    return leaderHost == self.hostId() && self.clientPort() > 0 ? self.address() + ":" + self.clientPort() : null;
  }
}
