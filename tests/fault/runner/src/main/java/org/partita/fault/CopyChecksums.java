package org.partita.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.partita.client.ClientConfig;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/**
 * Reads every copy's checksum from a cluster: {@code @Statistics CHECKSUM}
 * on each host through a connection to that host alone (host discovery
 * off, so the call is answered by the host asked), one row per copy of a
 * partition it holds (docs/system-procedures.md). Read after the final
 * reads: every write answered by then has run on every replica, so the
 * copies of a partition must agree. Stateless.
 */
final class CopyChecksums {
  private CopyChecksums() {}

  /**
   * Every copy's checksum on the hosts {@code survivors} (indexes into
   * {@code addresses}; a killed host's copies are gone).
   */
  static List<ReplicaVerdict.CopyChecksum> read(List<String> addresses, List<Integer> survivors)
      throws InterruptedException {
    final List<ReplicaVerdict.CopyChecksum> copies = new ArrayList<>();
    for (int host : survivors) {
      try (PartitaClient client = new PartitaClient(ClientConfig.builder().clientName("fault-checksums")
          .discoverHosts(false).connectTimeout(Duration.ofSeconds(5)).build())) {
        client.connect(addresses.get(host));
        final ResultTable table = FinalReads.callUntilOk(client, "@Statistics", "CHECKSUM").results().get(0);
        final int partition = table.columnIndex("PARTITION_ID");
        final int checksum = table.columnIndex("CHECKSUM");
        while (table.advanceRow()) {
          copies.add(new ReplicaVerdict.CopyChecksum((int) table.getLong(partition), host,
              Long.toHexString(table.getLong(checksum))));
        }
      }
    }
    return copies;
  }
}
