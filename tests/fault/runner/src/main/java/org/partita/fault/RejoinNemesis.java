package org.partita.fault;

import java.io.IOException;
import java.util.List;
import java.util.Random;

/**
 * rejoin (a cluster with K = 1; docs/cluster.md, "Rejoin"): kills a host
 * (SIGKILL, chosen as {@link KillNemesis} chooses on a cluster) and waits
 * for its partitions to fail over, so the fault's hold runs with one copy
 * of them under the workload; healing restarts it with {@code --rejoin}
 * and returns once its copies are back (every partition with K+1 copies).
 * One instance per fault.
 */
final class RejoinNemesis implements Nemesis {
  private final KillNemesis kill;

  RejoinNemesis() {
    this.kill = new KillNemesis(false);
  }

  @Override
  public String name() {
    return "rejoin";
  }

  @Override
  public List<Integer> inject(Hosts hosts, Random random) throws IOException, InterruptedException {
    final List<Integer> targets = kill.inject(hosts, random);
    for (int h : targets) {
      hosts.recover(h);
    }
    return targets;
  }

  @Override
  public void heal(Hosts hosts, List<Integer> targets) throws IOException, InterruptedException {
    for (int h : targets) {
      hosts.restart(h);
    }
  }

  @Override
  public String detail() {
    final String killed = kill.detail();
    return (killed.isEmpty() ? "" : killed + "; ") + "killed, failed over, then rejoined";
  }
}
