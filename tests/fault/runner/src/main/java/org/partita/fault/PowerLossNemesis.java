package org.partita.fault;

import java.io.IOException;
import java.util.List;
import java.util.Random;

/**
 * power-loss: SIGKILL one host chosen at random, then drop every write it
 * had not synced (tests/fault/powercut: the host runs under the shim for
 * the whole run); healing starts it again on what a power cut would have
 * left. Stateless.
 */
final class PowerLossNemesis implements Nemesis {
  @Override
  public String name() {
    return "power-loss";
  }

  @Override
  public List<Integer> inject(Hosts hosts, Random random) throws IOException, InterruptedException {
    final int host = random.nextInt(hosts.addresses().size());
    hosts.kill(host);
    hosts.dropUnsyncedWrites(host);
    return List.of(host);
  }

  @Override
  public void heal(Hosts hosts, List<Integer> targets) throws IOException, InterruptedException {
    for (int h : targets) {
      hosts.restart(h);
    }
  }
}
