package org.partita.server.sysproc;

import java.util.List;
import org.partita.server.topology.PartitionMap;

/**
 * The cluster as one host sees it, for {@code @Statistics CLUSTER} and the
 * cluster page (docs/cluster.md, "The cluster page"): the hosts of the
 * metadata this host follows, the partition map in it, and the changes this
 * host has seen since it started. Immutable; the host builds a fresh one
 * for each call.
 *
 * @param selfHostId the host answering
 * @param metadataIndex the Raft index of the metadata seen (0 on a single server)
 * @param map the partition map of that metadata
 * @param hosts every host of the cluster, by id
 * @param changes the changes seen, oldest first
 */
public record ClusterStatus(int selfHostId, long metadataIndex, PartitionMap map, List<Host> hosts,
    List<Change> changes) {

  public ClusterStatus {
    hosts = List.copyOf(hosts);
    changes = List.copyOf(changes);
  }

  /** A host's state as the metadata says. */
  public enum HostState {
    /** Registered, its partitions not open yet. */
    STARTING,
    /** Registered and serving. */
    SERVING,
    /**
     * Registered and serving, waiting for or receiving the copies the rejoin plan gives it (a host returning with
     * {@code --rejoin}).
     */
    REJOINING,
    /** Declared dead by the metadata leader; it never serves again in this incarnation. */
    DEAD,
    /** Listed in the configuration but not registered yet. */
    UNKNOWN
  }

  /**
   * One host.
   *
   * @param hostId its id
   * @param state its state
   * @param incarnation its incarnation (0 when unknown)
   * @param clientAddress where clients reach it (host:port), empty when unknown
   * @param httpAddress its HTTP port (host:port), empty when it has none
   */
  public record Host(int hostId, HostState state, long incarnation, String clientAddress, String httpAddress) {}

  /**
   * One change this host saw in the metadata.
   *
   * @param seenAtMillis when this host saw it, ms since the epoch
   * @param metadataIndex the Raft index of the metadata that carried it
   * @param topologyVersion the map's version after it
   * @param kind what changed: {@code HOST_DEAD}, {@code HOST_UP}, {@code NEW_LEADER}, {@code COPY_ADDED} (a copy
   *     given to a rejoining host), {@code REPLICAS} (other changes of the copies), {@code HOST_REJOINED}
   * @param hostId the host concerned (the dead, new or rejoined host, the new leader, the host given the copy; -1
   *     for none)
   * @param partition the partition concerned, or -1 for a host change
   * @param description the change in words
   */
  public record Change(long seenAtMillis, long metadataIndex, long topologyVersion, String kind, int hostId,
      int partition, String description) {}
}
