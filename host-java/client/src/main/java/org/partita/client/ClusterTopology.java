package org.partita.client;

import java.util.List;
import java.util.Map;

/**
 * The cluster's layout as the client last learnt it at login. Immutable.
 *
 * @param partitionCount number of partitions (0 before any login, or when the server hashes in a way
 *     this client does not know: then nothing is routed)
 * @param partitionLeaders for each partition (the index), the host id of its leader
 * @param hosts host id → "address:port" of its client port
 * @param catalogVersion the catalog version of the client's routing table
 * @param routedProcedures how many procedures the routing table knows
 */
public record ClusterTopology(int partitionCount, List<Integer> partitionLeaders, Map<Integer, String> hosts,
    long catalogVersion, int routedProcedures) {
  public ClusterTopology {
    partitionLeaders = List.copyOf(partitionLeaders);
    hosts = Map.copyOf(hosts);
  }
}
