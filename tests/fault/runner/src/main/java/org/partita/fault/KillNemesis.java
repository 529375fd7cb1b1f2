package org.partita.fault;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;

/**
 * kill (one host, chosen at random) and kill-all (every host): SIGKILL.
 * On one host both kill that host, and healing starts it again to recover
 * from its command log. kill-all on a cluster kills every host, and healing
 * restarts the whole cluster from the hosts' command logs
 * ({@link Hosts#restartAll}). kill on a cluster (K ≥ 1) takes one host, or
 * with K ≥ 2 from one to K hosts at once, chosen at random; healing waits
 * until the survivors lead their partitions (failover); in a run with the
 * rejoin nemesis the hosts then rejoin ({@link Hosts#restart}) and kills
 * may strike again, otherwise they stay dead and the schedule plays at most
 * one kill per run. Any host may be killed, the one leading
 * partition 0 (the multi-partition coordinator) included; the detail says
 * whether the killed host was the coordinator and whether it was the
 * metadata leader. One instance per fault: it keeps what it did for
 * {@link #detail}.
 */
final class KillNemesis implements Nemesis {
  private final boolean all;
  private String detail = "";

  KillNemesis(boolean all) {
    this.all = all;
  }

  @Override
  public String name() {
    return all ? "kill-all" : "kill";
  }

  @Override
  public List<Integer> inject(Hosts hosts, Random random) throws IOException, InterruptedException {
    final List<Integer> targets = new ArrayList<>();
    if (all) {
      targets.addAll(hosts.survivors());
    } else if (hosts.restartable()) {
      targets.add(random.nextInt(hosts.addresses().size()));
    } else {
      // With K = 1 no draw is spent on the count, so K = 1 runs keep their schedules by seed.
      final int count = hosts.kfactor() > 1 ? 1 + random.nextInt(hosts.kfactor()) : 1;
      for (int i = 0; i < count; i++) {
        targets.add(clusterTarget(hosts, random, targets));
      }
    }
    for (int h : targets) {
      hosts.kill(h);
    }
    return targets;
  }

  @Override
  public void heal(Hosts hosts, List<Integer> targets) throws IOException, InterruptedException {
    if (all && !hosts.restartable()) {
      hosts.restartAll();
      detail = "every host killed; the cluster restarted from its hosts' command logs (--recover)";
      return;
    }
    for (int h : targets) {
      hosts.recover(h);
    }
    for (int h : targets) {
      if (!hosts.restartable() && hosts.rejoins()) {
        hosts.restart(h);
      }
    }
    if (!hosts.restartable()) {
      detail += (detail.isEmpty() ? "" : "; ") + (hosts.rejoins()
          ? "hosts " + targets + ": their partitions failed over, then they rejoined and hold their copies again"
          : "hosts " + targets + ": their partitions failed over; they stay dead (the run has no rejoin nemesis)");
    }
  }

  @Override
  public String detail() {
    return detail;
  }

  /** The host leading partition 0, or -1 when no survivor could say (the detail then does not name it). */
  private static int coordinator(Hosts hosts) {
    try {
      return hosts.coordinator();
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** A random surviving host of the cluster, not one of {@code chosen}. */
  private int clusterTarget(Hosts hosts, Random random, List<Integer> chosen) {
    final List<Integer> candidates = new ArrayList<>(hosts.survivors());
    candidates.removeAll(chosen);
    if (candidates.isEmpty()) {
      throw new IllegalStateException("no host to kill: every host is dead");
    }
    final int target = candidates.get(random.nextInt(candidates.size()));
    final StringBuilder why = new StringBuilder();
    if (coordinator(hosts) == target) {
      why.append("host ").append(target).append(" led partition 0: it coordinated the multi-partition "
          + "transactions, which move to partition 0's new leader");
    }
    final OptionalInt metadataLeader = hosts.metadataLeader();
    why.append(why.length() == 0 ? "" : "; ").append(metadataLeader.isEmpty()
        ? "the metadata leader is not known (no host logged its election)"
        : metadataLeader.getAsInt() == target ? "host " + target + " was the metadata leader"
        : "the metadata leader was host " + metadataLeader.getAsInt());
    detail += (detail.isEmpty() ? "" : "; ") + why;
    return target;
  }
}
