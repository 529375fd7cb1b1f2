package org.partita.server.cluster;

import java.util.ArrayList;
import java.util.List;
import org.partita.server.topology.PartitionMap;

/**
 * Where a new cluster's partitions live (docs/cluster.md, "Placement"):
 * from the host count H, sites per host S and K, the partition map the
 * metadata leader installs at formation. P = H·S/(K+1) partitions; the
 * copies, taken in partition order, go round-robin over the hosts, so each
 * partition's K+1 copies are on distinct hosts and each host holds exactly
 * S copies; each partition is led by the copy whose host leads the fewest
 * partitions so far (lowest copy first on a tie), which spreads leaders
 * evenly. Buckets go to partitions round-robin. Version 1, epoch 1.
 *
 * <p>A pure function; hosts are numbered 0..H-1.
 */
public final class Placement {
  private Placement() {
  }

  /** The map for {@code hosts} hosts; IllegalArgumentException names a configuration that cannot be placed. */
  public static PartitionMap of(int hosts, int sitesPerHost, int kFactor) {
    check(hosts, sitesPerHost, kFactor);
    final int copies = kFactor + 1;
    final int partitionCount = hosts * sitesPerHost / copies;
    final int[] leadersOn = new int[hosts];
    final List<PartitionMap.Replicas> partitions = new ArrayList<>(partitionCount);
    for (int p = 0; p < partitionCount; p++) {
      final List<Integer> replicas = new ArrayList<>(copies);
      int leader = -1;
      for (int r = 0; r < copies; r++) {
        final int host = (p * copies + r) % hosts;
        replicas.add(host);
        if (leader < 0 || leadersOn[host] < leadersOn[leader]) {
          leader = host;
        }
      }
      leadersOn[leader]++;
      partitions.add(new PartitionMap.Replicas(p, leader, replicas, 1));
    }
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = b % partitionCount;
    }
    return PartitionMap.of(1, buckets, partitions);
  }

  private static void check(int hosts, int sitesPerHost, int kFactor) {
    if (hosts < 1 || sitesPerHost < 1 || kFactor < 0) {
      throw new IllegalArgumentException("placement needs hosts >= 1, sites per host >= 1 and K >= 0, got hosts "
          + hosts + ", sites per host " + sitesPerHost + ", K " + kFactor);
    }
    if (kFactor + 1 > hosts) {
      throw new IllegalArgumentException("K=" + kFactor + " needs " + (kFactor + 1)
          + " distinct hosts per partition, but the cluster has " + hosts);
    }
    if ((long) hosts * sitesPerHost % (kFactor + 1) != 0) {
      throw new IllegalArgumentException(hosts + " hosts x " + sitesPerHost + " sites = " + hosts * sitesPerHost
          + " copies, not a multiple of K+1 = " + (kFactor + 1) + "; change the sites per host or the host count");
    }
    if ((long) hosts * sitesPerHost / (kFactor + 1) > PartitionMap.BUCKETS) {
      throw new IllegalArgumentException("more partitions than buckets (" + PartitionMap.BUCKETS + ")");
    }
  }
}
