package org.partita.fault;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * kill (one host, chosen at random) and kill-all (every host): SIGKILL;
 * healing starts them again, and each recovers from its command log. On
 * one host both kill that host. Stateless.
 */
final class KillNemesis implements Nemesis {
  private final boolean all;

  KillNemesis(boolean all) {
    this.all = all;
  }

  @Override
  public String name() {
    return all ? "kill-all" : "kill";
  }

  @Override
  public List<Integer> inject(Hosts hosts, Random random) throws IOException, InterruptedException {
    final int count = hosts.addresses().size();
    final List<Integer> targets = new ArrayList<>();
    if (all) {
      for (int h = 0; h < count; h++) {
        targets.add(h);
      }
    } else {
      targets.add(random.nextInt(count));
    }
    for (int h : targets) {
      hosts.kill(h);
    }
    return targets;
  }

  @Override
  public void heal(Hosts hosts, List<Integer> targets) throws IOException, InterruptedException {
    for (int h : targets) {
      hosts.restart(h);
    }
  }
}
