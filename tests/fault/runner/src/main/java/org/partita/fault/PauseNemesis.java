package org.partita.fault;

import java.io.IOException;
import java.util.List;
import java.util.Random;

/**
 * pause: SIGSTOP one host chosen at random (among those not killed for
 * good, on a cluster); healing sends SIGCONT. Calls
 * to it meanwhile time out (info). The schedule keeps pauses longer than
 * the workers' call timeout. Stateless.
 */
final class PauseNemesis implements Nemesis {
  @Override
  public String name() {
    return "pause";
  }

  @Override
  public List<Integer> inject(Hosts hosts, Random random) throws IOException, InterruptedException {
    final List<Integer> survivors = hosts.survivors();
    final int host = survivors.get(random.nextInt(survivors.size()));
    hosts.pause(host);
    return List.of(host);
  }

  @Override
  public void heal(Hosts hosts, List<Integer> targets) throws IOException, InterruptedException {
    for (int h : targets) {
      hosts.resume(h);
    }
  }
}
