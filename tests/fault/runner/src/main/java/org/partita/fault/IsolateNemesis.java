package org.partita.fault;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * isolate (a cluster with K = 1; docs/cluster.md, "Network partitions"):
 * cuts one surviving host off from the others (Grudge.isolate, nftables
 * rules on its address and cgroup) and holds the cut past the heartbeat
 * timeout: inject returns once a survivor's map shows the host declared
 * dead (no partition keeps a copy on it), so the fault's hold runs with one
 * copy of its partitions while the host, cut off, cannot acknowledge
 * anything. Healing removes the cut and returns once the host, which reads
 * that it was declared dead, has rejoined by itself as a new incarnation
 * and every partition has its K+1 copies again. One instance per fault.
 */
final class IsolateNemesis implements Nemesis {
  private String detail = "";

  @Override
  public String name() {
    return "isolate";
  }

  @Override
  public List<Integer> inject(Hosts hosts, Random random) throws IOException, InterruptedException {
    final List<Integer> candidates = new ArrayList<>(hosts.survivors());
    if (candidates.size() < hosts.addresses().size()) {
      throw new IllegalStateException("isolate needs every host up (hosts " + hosts.survivors() + " of "
          + hosts.addresses().size() + " survive): with K = 1 cutting off another host would leave partitions "
          + "without a copy");
    }
    final int target = candidates.get(random.nextInt(candidates.size()));
    final Grudge grudge = Grudge.isolate(target, hosts.addresses().size());
    hosts.cut(grudge);
    final long cut = System.nanoTime();
    hosts.awaitDeclaredDead(target);
    detail = grudge.description() + "; declared dead " + (System.nanoTime() - cut) / 1_000_000
        + " ms after the cut";
    return List.of(target);
  }

  @Override
  public void heal(Hosts hosts, List<Integer> targets) throws IOException, InterruptedException {
    final long healed = System.nanoTime();
    hosts.healNetwork();
    for (int h : targets) {
      hosts.awaitRejoined(h);
    }
    detail += "; healed, then it rejoined by itself and every partition had its copies again "
        + (System.nanoTime() - healed) / 1_000_000 + " ms after healing";
  }

  @Override
  public String detail() {
    return detail;
  }
}
