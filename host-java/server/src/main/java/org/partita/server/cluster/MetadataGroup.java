package org.partita.server.cluster;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.TimeDuration;

/**
 * The voters of the metadata group and its election timeouts: what every
 * voter and every client of the group must agree on. Immutable.
 *
 * @param peers the voters, with distinct ids and addresses
 * @param electionTimeoutMin a follower that hears no leader for a random time
 *     between the two timeouts starts an election (docs/cluster.md, "Ratis
 *     settings": 1-2 s on real deployments, shorter in tests)
 * @param electionTimeoutMax see electionTimeoutMin
 */
public record MetadataGroup(List<MetadataPeer> peers, Duration electionTimeoutMin, Duration electionTimeoutMax) {
  /** The group's id; one metadata group per cluster. */
  static final RaftGroupId GROUP_ID =
      RaftGroupId.valueOf(UUID.nameUUIDFromBytes("partita-metadata".getBytes(StandardCharsets.UTF_8)));

  /** Log entries between two automatic snapshots of the metadata. */
  static final long SNAPSHOT_EVERY = 1024;

  public MetadataGroup {
    peers = List.copyOf(peers);
    if (peers.isEmpty()) {
      throw new IllegalArgumentException("the metadata group needs at least one voter");
    }
    final Set<String> ids = new HashSet<>();
    final Set<String> addresses = new HashSet<>();
    for (MetadataPeer peer : peers) {
      if (!ids.add(peer.id())) {
        throw new IllegalArgumentException("metadata voter id " + peer.id() + " appears twice");
      }
      if (!addresses.add(peer.hostPort())) {
        throw new IllegalArgumentException("metadata voter address " + peer.hostPort() + " appears twice");
      }
    }
    if (electionTimeoutMin.isNegative() || electionTimeoutMin.isZero()
        || electionTimeoutMax.compareTo(electionTimeoutMin) <= 0) {
      throw new IllegalArgumentException("election timeouts must satisfy 0 < min < max, got "
          + electionTimeoutMin + " and " + electionTimeoutMax);
    }
  }

  /** The voter with {@code id}. */
  MetadataPeer peer(String id) {
    return peers.stream().filter(p -> p.id().equals(id)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no metadata voter has id " + id + "; voters: "
            + peers.stream().map(MetadataPeer::id).toList()));
  }

  RaftGroup raftGroup() {
    return RaftGroup.valueOf(GROUP_ID, peers.stream()
        .map(p -> RaftPeer.newBuilder().setId(p.id()).setAddress(p.hostPort()).build()).toList());
  }

  /** Properties every server and client of the group shares. */
  RaftProperties properties() {
    final RaftProperties properties = new RaftProperties();
    RaftServerConfigKeys.Rpc.setTimeoutMin(properties,
        TimeDuration.valueOf(electionTimeoutMin.toMillis(), TimeUnit.MILLISECONDS));
    RaftServerConfigKeys.Rpc.setTimeoutMax(properties,
        TimeDuration.valueOf(electionTimeoutMax.toMillis(), TimeUnit.MILLISECONDS));
    // A snapshot every SNAPSHOT_EVERY entries; the log is purged up to it.
    RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
    RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, SNAPSHOT_EVERY);
    RaftServerConfigKeys.Snapshot.setRetentionFileNum(properties, 2);
    RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, true);
    return properties;
  }
}
