package org.partita.fault;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.partita.client.PartitaClient;

/**
 * partition and partition-leader: cut the network between hosts with the
 * run's nftables table (Grudge, NftRules); healing removes the cut.
 * {@code partition} draws one host isolated, a random minority cut off from
 * the majority, or a bridge. {@code partition-leader} isolates the host of
 * a leader: the metadata leader's when the hosts' logs tell it (K ≥ 1),
 * otherwise a host leading partitions, from the client's topology
 * ({@link #leaderHost}; the detail says which). One instance per fault: it keeps
 * what it cut for {@link #detail}.
 */
final class PartitionNemesis implements Nemesis {
  private final boolean leader;
  private String detail = "";

  PartitionNemesis(boolean leader) {
    this.leader = leader;
  }

  @Override
  public String name() {
    return leader ? "partition-leader" : "partition";
  }

  @Override
  public List<Integer> inject(Hosts hosts, Random random) throws IOException, InterruptedException {
    final int count = hosts.addresses().size();
    final Grudge grudge;
    if (leader) {
      final int host = leaderHost(hosts, random);
      grudge = Grudge.isolate(host, count);
    } else {
      grudge = Grudge.random(random, count);
    }
    detail = (detail.isEmpty() ? "" : detail + "; ") + grudge.description();
    hosts.cut(grudge);
    // The hosts cut off (a bridge cuts nobody off: then every host with a cut link).
    final Set<Integer> targets = new TreeSet<>(grudge.minority());
    if (targets.isEmpty()) {
      for (List<Integer> link : grudge.links()) {
        targets.addAll(link);
      }
    }
    return new ArrayList<>(targets);
  }

  @Override
  public void heal(Hosts hosts, List<Integer> targets) throws IOException, InterruptedException {
    hosts.healNetwork();
  }

  @Override
  public String detail() {
    return detail;
  }

  /**
   * The metadata leader's host when the hosts' logs name it (K ≥ 1,
   * {@link Hosts#metadataLeader}); otherwise a random surviving host among
   * those leading partitions in the topology a client of every host learns
   * at login. The detail says which it used.
   */
  private int leaderHost(Hosts hosts, Random random) {
    final java.util.OptionalInt metadata = hosts.metadataLeader();
    if (metadata.isPresent()) {
      detail = "host " + metadata.getAsInt() + " leads the metadata group (its log's latest election)";
      return metadata.getAsInt();
    }
    final List<Integer> leaders;
    try (PartitaClient client = Worker.connect("fault-nemesis", hosts.addresses())) {
      leaders = new ArrayList<>(new TreeSet<>(client.topology().partitionLeaders()));
    }
    leaders.retainAll(hosts.survivors());
    if (leaders.isEmpty()) {
      throw new IllegalStateException("the cluster's topology names no partition leader among the survivors");
    }
    final int host = leaders.get(random.nextInt(leaders.size()));
    detail = "host " + host + " leads partitions (no host logged a metadata election: K=0 runs no failure "
        + "detection)";
    return host;
  }
}
