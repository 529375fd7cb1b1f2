package org.partita.fault;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.partita.client.ClientConfig;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/**
 * Reads every copy's checksum from a cluster: {@code @Statistics CHECKSUM}
 * on each host through a connection to that host alone (host discovery
 * off, so the call is answered by the host asked), one row per copy of a
 * partition it holds (docs/system-procedures.md), with the map's copies of
 * each partition ({@code @SystemCatalog PARTITIONS}) read before and after
 * them: only the copies the map lists are copies of a partition (a host
 * dropped from a partition's epoch may still hold what it had). Read after
 * the final reads: every write answered by then has run on every copy the
 * map lists, so those must agree. Stateless.
 */
final class CopyChecksums {
  /** How many times the copies are read again when the map changed while they were read. */
  static final int READS = 5;

  private CopyChecksums() {}

  /**
   * The copies' checksums on the hosts {@code survivors} (indexes into
   * {@code addresses}; a killed host's copies are gone) and the map they
   * were read under (asked of the first survivor before and after them; read
   * again, up to {@value #READS} times, while the two differ).
   */
  static ReplicaVerdict.Copies read(List<String> addresses, List<Integer> survivors) throws InterruptedException {
    ReplicaVerdict.Copies copies = null;
    for (int attempt = 0; attempt < READS; attempt++) {
      final Map<Integer, List<Integer>> before = members(addresses.get(survivors.get(0)));
      final List<ReplicaVerdict.CopyChecksum> checksums = new ArrayList<>();
      for (int host : survivors) {
        checksums.addAll(checksums(addresses.get(host), host));
      }
      final Map<Integer, List<Integer>> after = members(addresses.get(survivors.get(0)));
      copies = new ReplicaVerdict.Copies(checksums, after);
      if (before.equals(after)) {
        return copies;
      }
    }
    return copies;
  }

  private static List<ReplicaVerdict.CopyChecksum> checksums(String address, int host) throws InterruptedException {
    final List<ReplicaVerdict.CopyChecksum> copies = new ArrayList<>();
    try (PartitaClient client = alone(address)) {
      final ResultTable table = FinalReads.callUntilOk(client, "@Statistics", "CHECKSUM").results().get(0);
      final int partition = table.columnIndex("PARTITION_ID");
      final int checksum = table.columnIndex("CHECKSUM");
      while (table.advanceRow()) {
        copies.add(new ReplicaVerdict.CopyChecksum((int) table.getLong(partition), host,
            Long.toHexString(table.getLong(checksum))));
      }
    }
    return copies;
  }

  private static Map<Integer, List<Integer>> members(String address) throws InterruptedException {
    try (PartitaClient client = alone(address)) {
      return members(FinalReads.callUntilOk(client, "@SystemCatalog", "PARTITIONS").results().get(0));
    }
  }

  /** The hosts holding each partition's copies, by partition id, in a {@code @SystemCatalog PARTITIONS} table. */
  static Map<Integer, List<Integer>> members(ResultTable table) {
    final int partition = table.columnIndex("PARTITION_ID");
    final int replicas = table.columnIndex("REPLICA_HOST_IDS");
    final Map<Integer, List<Integer>> byPartition = new TreeMap<>();
    while (table.advanceRow()) {
      final List<Integer> hostIds = new ArrayList<>();
      for (String id : table.getString(replicas).split(",")) {
        hostIds.add(Integer.parseInt(id.trim()));
      }
      byPartition.put((int) table.getLong(partition), List.copyOf(hostIds));
    }
    return byPartition;
  }

  private static PartitaClient alone(String address) {
    return ClusterHosts.alone(address, ClientConfig.builder().clientName("fault-checksums"));
  }
}
