package org.partita.server.cluster;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.partita.client.proto.PartitionReplicas;
import org.partita.client.proto.Topology;
import org.partita.proto.cluster.ChangeLeader;
import org.partita.proto.cluster.InstallMap;
import org.partita.proto.cluster.MetadataCommand;
import org.partita.proto.cluster.MetadataReply;
import org.partita.server.topology.PartitionMap;

/**
 * The cluster's metadata and the rules that change it (docs/cluster.md,
 * "Control plane"): the current partition map, changed only by
 * {@link #apply} of a {@link MetadataCommand}, each a compare-and-set on the
 * map's version or a partition's epoch. Deterministic: the same commands in
 * the same order give the same state on every voter, and a command that
 * does not hold is refused with a reason rather than thrown, so a bad
 * command never stops a voter.
 *
 * <p>Owned by one {@link MetadataStateMachine}. {@link #apply} is called by
 * Ratis on one thread at a time, in log order; {@link #map} may be read from
 * any thread (the map is immutable, the reference volatile).
 */
final class MetadataState {
  private volatile PartitionMap map;

  /** The current map, or null before the first {@code InstallMap}. */
  PartitionMap map() {
    return map;
  }

  /** The version of the current map; 0 before the first {@code InstallMap}. */
  long version() {
    final PartitionMap current = map;
    return current == null ? 0 : current.version();
  }

  /** Applies one committed command (the log entry's bytes, at {@code logIndex}). */
  MetadataReply apply(byte[] commandBytes, long logIndex) {
    final MetadataCommand command;
    try {
      command = MetadataCommand.parseFrom(commandBytes);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      return refused("malformed metadata command at log index " + logIndex + ": " + e.getMessage());
    }
    return switch (command.getCommandCase()) {
      case INSTALL_MAP -> install(command.getInstallMap());
      case CHANGE_LEADER -> changeLeader(command.getChangeLeader());
      case COMMAND_NOT_SET -> refused("empty metadata command at log index " + logIndex);
    };
  }

  /** The answer to a read: the current map. */
  MetadataReply current() {
    return withMap(MetadataReply.newBuilder().setApplied(true));
  }

  private MetadataReply install(InstallMap install) {
    if (install.getExpectedVersion() != version()) {
      return refused("InstallMap expected map version " + install.getExpectedVersion() + ", current is " + version());
    }
    final PartitionMap next;
    try {
      next = fromTopology(install.getMap(), install.getExpectedVersion() + 1);
    } catch (IllegalArgumentException e) {
      return refused("InstallMap: " + e.getMessage());
    }
    map = next;
    return withMap(MetadataReply.newBuilder().setApplied(true));
  }

  private MetadataReply changeLeader(ChangeLeader change) {
    final PartitionMap current = map;
    if (current == null) {
      return refused("ChangeLeader for partition " + change.getPartition() + ": no partition map installed");
    }
    if (change.getPartition() >= current.partitionCount()) {
      return refused("ChangeLeader: partition " + change.getPartition() + " does not exist (the map has "
          + current.partitionCount() + ")");
    }
    final PartitionMap.Replicas old = current.replicas(change.getPartition());
    if (change.getExpectedEpoch() != old.epoch()) {
      return refused("ChangeLeader for partition " + change.getPartition() + " expected epoch "
          + change.getExpectedEpoch() + ", current is " + old.epoch());
    }
    final String invalid = checkReplicaSet(change.getLeaderHostId(), change.getReplicaHostIdsList());
    if (invalid != null) {
      return refused("ChangeLeader for partition " + change.getPartition() + ": " + invalid);
    }
    final List<PartitionMap.Replicas> partitions = new ArrayList<>(current.partitionCount());
    for (int p = 0; p < current.partitionCount(); p++) {
      partitions.add(p == change.getPartition()
          ? new PartitionMap.Replicas(p, change.getLeaderHostId(), change.getReplicaHostIdsList(), old.epoch() + 1)
          : current.replicas(p));
    }
    map = PartitionMap.of(current.version() + 1, bucketTable(current), partitions);
    return withMap(MetadataReply.newBuilder().setApplied(true));
  }

  /** Null when {@code replicas} is a valid set led by {@code leader}, else why not. */
  private static String checkReplicaSet(int leader, List<Integer> replicas) {
    if (replicas.isEmpty()) {
      return "the replica set is empty";
    }
    final Set<Integer> distinct = new HashSet<>(replicas);
    if (distinct.size() != replicas.size()) {
      return "the replica set " + replicas + " names a host twice";
    }
    if (!distinct.contains(leader)) {
      return "the leader " + leader + " is not in the replica set " + replicas;
    }
    return null;
  }

  /**
   * The map {@code topology} describes, with {@code version}. Throws
   * IllegalArgumentException naming what is wrong.
   */
  static PartitionMap fromTopology(Topology topology, long version) {
    if (topology.getPartitionsCount() == 0) {
      throw new IllegalArgumentException("the map has no partitions");
    }
    final List<PartitionMap.Replicas> partitions = new ArrayList<>(topology.getPartitionsCount());
    for (int i = 0; i < topology.getPartitionsCount(); i++) {
      final PartitionReplicas r = topology.getPartitions(i);
      if (r.getPartition() != i) {
        throw new IllegalArgumentException("partition entry " + i + " names partition " + r.getPartition());
      }
      final String invalid = checkReplicaSet(r.getLeaderHostId(), r.getReplicaHostIdsList());
      if (invalid != null) {
        throw new IllegalArgumentException("partition " + i + ": " + invalid);
      }
      partitions.add(new PartitionMap.Replicas(i, r.getLeaderHostId(), r.getReplicaHostIdsList(), r.getEpoch()));
    }
    final int[] buckets = topology.getBucketPartitionsList().stream().mapToInt(Integer::intValue).toArray();
    return PartitionMap.of(version, buckets, partitions);
  }

  private static int[] bucketTable(PartitionMap map) {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = map.partitionOfBucket(b);
    }
    return buckets;
  }

  private MetadataReply withMap(MetadataReply.Builder reply) {
    final PartitionMap current = map;
    if (current != null) {
      reply.setMap(current.fill(Topology.newBuilder()));
    }
    return reply.build();
  }

  private MetadataReply refused(String why) {
    return withMap(MetadataReply.newBuilder().setApplied(false).setRefusal(why));
  }
}
