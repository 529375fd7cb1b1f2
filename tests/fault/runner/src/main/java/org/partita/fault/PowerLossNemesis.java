package org.partita.fault;

import java.io.IOException;
import java.util.List;
import java.util.Random;

/**
 * power-loss: on one host, SIGKILL it, then drop every write it had not
 * synced (tests/fault/powercut: the host runs under the shim for the whole
 * run); healing starts it again on what a power cut would have left. On a
 * cluster the power goes out for every host (one host losing power is a
 * kill, which its copies survive): each is killed and loses its unsynced
 * log writes, and healing restarts the whole cluster from what the logs
 * kept ({@link Hosts#restartAll}). Stateless.
 */
final class PowerLossNemesis implements Nemesis {
  /** Every host of the cluster, by number. */
  private static List<Integer> allHosts(Hosts hosts) {
    final List<Integer> all = new java.util.ArrayList<>();
    for (int h = 0; h < hosts.addresses().size(); h++) {
      all.add(h);
    }
    return all;
  }

  @Override
  public String name() {
    return "power-loss";
  }

  @Override
  public List<Integer> inject(Hosts hosts, Random random) throws IOException, InterruptedException {
    if (!hosts.restartable()) {
      final List<Integer> every = List.copyOf(hosts.survivors());
      for (int h : every) {
        hosts.kill(h);
      }
      for (int h : allHosts(hosts)) {
        hosts.dropUnsyncedWrites(h);
      }
      return every;
    }
    final int host = random.nextInt(hosts.addresses().size());
    hosts.kill(host);
    hosts.dropUnsyncedWrites(host);
    return List.of(host);
  }

  @Override
  public void heal(Hosts hosts, List<Integer> targets) throws IOException, InterruptedException {
    if (!hosts.restartable()) {
      hosts.restartAll();
      return;
    }
    for (int h : targets) {
      hosts.restart(h);
    }
  }
}
