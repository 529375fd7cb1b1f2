package org.partita.fault;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;

/**
 * kill (one host, chosen at random) and kill-all (every host): SIGKILL.
 * On one host both kill that host, and healing starts it again to recover
 * from its command log. On a cluster (K = 1; kill-all is refused there)
 * healing waits until the survivors lead its partitions (failover); in a
 * run with the rejoin nemesis the host then rejoins ({@link Hosts#restart})
 * and kills may strike again, otherwise it stays dead and the schedule
 * plays at most one kill per run; and when the workload's transactions are multi-partition
 * the host leading partition 0 is spared, because it coordinates them and
 * coordinator failover is not built (the detail says so). The detail also
 * says whether the killed host was the metadata leader. One instance per
 * fault: it keeps what it did for {@link #detail}.
 */
final class KillNemesis implements Nemesis {
  private final boolean all;
  private final boolean spareCoordinator;
  private String detail = "";

  /**
   * @param spareCoordinator on a cluster, never kill the host leading
   *     partition 0 (the workload needs multi-partition transactions)
   */
  KillNemesis(boolean all, boolean spareCoordinator) {
    this.all = all;
    this.spareCoordinator = spareCoordinator;
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
      targets.add(clusterTarget(hosts, random));
    }
    for (int h : targets) {
      hosts.kill(h);
    }
    return targets;
  }

  @Override
  public void heal(Hosts hosts, List<Integer> targets) throws IOException, InterruptedException {
    for (int h : targets) {
      hosts.recover(h);
      if (!hosts.restartable() && hosts.rejoins()) {
        hosts.restart(h);
      }
    }
    if (!hosts.restartable()) {
      detail += (detail.isEmpty() ? "" : "; ") + (hosts.rejoins()
          ? "its partitions failed over, then it rejoined and holds its copies again"
          : "its partitions failed over; it stays dead (the run has no rejoin nemesis)");
    }
  }

  @Override
  public String detail() {
    return detail;
  }

  /** A random surviving host of the cluster, not the coordinator's when it must be spared. */
  private int clusterTarget(Hosts hosts, Random random) {
    final List<Integer> candidates = new ArrayList<>(hosts.survivors());
    final StringBuilder why = new StringBuilder();
    if (spareCoordinator) {
      final int coordinator = hosts.coordinator();
      candidates.remove(Integer.valueOf(coordinator));
      why.append("host ").append(coordinator).append(" spared: it leads partition 0 and coordinates the "
          + "workload's multi-partition transactions (coordinator failover is not built)");
    }
    if (candidates.isEmpty()) {
      throw new IllegalStateException("no host to kill: survivors " + hosts.survivors() + ", " + why);
    }
    final int target = candidates.get(random.nextInt(candidates.size()));
    final OptionalInt metadataLeader = hosts.metadataLeader();
    why.append(why.length() == 0 ? "" : "; ").append(metadataLeader.isEmpty()
        ? "the metadata leader is not known (no host logged its election)"
        : metadataLeader.getAsInt() == target ? "host " + target + " was the metadata leader"
        : "the metadata leader was host " + metadataLeader.getAsInt());
    detail = why.toString();
    return target;
  }
}
