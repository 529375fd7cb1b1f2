package org.partita.server.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.partita.client.PartitionHash;
import org.partita.client.proto.PartitionReplicas;
import org.partita.client.proto.Topology;

/**
 * Where every key and every partition lives (docs/partition-hash.md,
 * DESIGN "Partition map and topology"): a key hashes to one of 16,384
 * buckets; a table maps each bucket to a partition; each partition has its
 * replicas (K+1 hosts), one of them the leader, and an epoch that changes
 * with its leadership. The map has a version that increases with every
 * change, and is what clients receive at login.
 *
 * <p>Every routing decision of the server goes through this map: nothing
 * assumes that partitions are the local site threads or that a key's
 * partition is its bucket modulo the partition count. Immutable and
 * thread-safe; a change makes a new map.
 */
public final class PartitionMap {
  /** Number of buckets (2^14). */
  public static final int BUCKETS = PartitionHash.BUCKETS;

  /** One partition's copies. */
  public record Replicas(int partition, int leaderHost, List<Integer> replicaHosts, long epoch) {
    public Replicas {
      replicaHosts = List.copyOf(replicaHosts);
    }
  }

  private final long version;
  private final int[] bucketPartition;
  private final List<Replicas> partitions;

  private PartitionMap(long version, int[] bucketPartition, List<Replicas> partitions) {
    this.version = version;
    this.bucketPartition = bucketPartition;
    this.partitions = List.copyOf(partitions);
  }

  /**
   * The map of one host leading {@code partitionCount} partitions, epoch 1,
   * version 1, with the default bucket table (bucket mod partitionCount).
   */
  public static PartitionMap singleHost(int partitionCount, int hostId) {
    if (partitionCount < 1 || partitionCount > BUCKETS) {
      throw new IllegalArgumentException("partition count must be in [1, " + BUCKETS + "], got " + partitionCount);
    }
    final int[] buckets = new int[BUCKETS];
    for (int b = 0; b < BUCKETS; b++) {
      buckets[b] = b % partitionCount;
    }
    final List<Replicas> replicas = new ArrayList<>(partitionCount);
    for (int p = 0; p < partitionCount; p++) {
      replicas.add(new Replicas(p, hostId, List.of(hostId), 1));
    }
    return new PartitionMap(1, buckets, replicas);
  }

  /**
   * A map with an explicit bucket table (tests, and later the cluster's
   * control plane). Every entry must name one of {@code partitions}.
   */
  public static PartitionMap of(long version, int[] bucketPartition, List<Replicas> partitions) {
    if (bucketPartition.length != BUCKETS) {
      throw new IllegalArgumentException("the bucket table needs " + BUCKETS + " entries, got "
          + bucketPartition.length);
    }
    for (int b = 0; b < BUCKETS; b++) {
      if (bucketPartition[b] < 0 || bucketPartition[b] >= partitions.size()) {
        throw new IllegalArgumentException("bucket " + b + " maps to partition " + bucketPartition[b] + " of "
            + partitions.size());
      }
    }
    return new PartitionMap(version, bucketPartition.clone(), partitions);
  }

  public long version() {
    return version;
  }

  public int partitionCount() {
    return partitions.size();
  }

  /**
   * The partition of a canonical partitioning value (Long for integer and
   * timestamp columns, String, byte[]; see PartitionHash). NULL goes to
   * partition 0.
   */
  public int partitionOf(Object canonicalValue) {
    final int bucket = PartitionHash.bucketOf(canonicalValue);
    return bucket < 0 ? 0 : bucketPartition[bucket];
  }

  /** {@link #partitionOf} of an integer or TIMESTAMP value, without boxing it. */
  public int partitionOfLong(long value) {
    return bucketPartition[PartitionHash.bucket(PartitionHash.hashLong(value))];
  }

  /** The partition of {@code bucket}. */
  public int partitionOfBucket(int bucket) {
    return bucketPartition[bucket];
  }

  public Replicas replicas(int partition) {
    return partitions.get(partition);
  }

  /** The partitions {@code hostId} holds a copy of, leader or replica, in partition order. */
  public List<Integer> partitionsHeldBy(int hostId) {
    final List<Integer> held = new ArrayList<>();
    for (int p = 0; p < partitions.size(); p++) {
      if (partitions.get(p).replicaHosts().contains(hostId)) {
        held.add(p);
      }
    }
    return held;
  }

  /** The host id of {@code partition}'s leader. */
  public int leaderOf(int partition) {
    return partitions.get(partition).leaderHost();
  }

  /** Fills the topology fields the map owns (count, leaders, version, buckets, replicas) into {@code topology}. */
  public Topology.Builder fill(Topology.Builder topology) {
    topology.setPartitionCount(partitions.size()).setTopologyVersion(version);
    for (Replicas r : partitions) {
      topology.addPartitionLeaders(r.leaderHost());
      topology.addPartitions(PartitionReplicas.newBuilder().setPartition(r.partition())
          .setLeaderHostId(r.leaderHost()).addAllReplicaHostIds(r.replicaHosts()).setEpoch(r.epoch()));
    }
    for (int partition : bucketPartition) {
      topology.addBucketPartitions(partition);
    }
    return topology;
  }

  @Override
  public String toString() {
    return "PartitionMap v" + version + ": " + partitions.size() + " partition(s), buckets "
        + Arrays.stream(bucketPartition).limit(8).boxed().toList() + "...";
  }
}
