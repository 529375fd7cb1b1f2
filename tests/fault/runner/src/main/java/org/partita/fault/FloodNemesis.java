package org.partita.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;

/**
 * flood-minority, after Jepsen's VoltDB cycle (shared research, "Nemeses"):
 * a random minority of hosts is flooded with writes into an unrelated
 * table ({@code FloodInsert}, workloads/flood.sql) through a client that
 * reaches only the minority, one call every {@link #INTERVAL_MICROS} µs
 * for {@link #LEAD_MILLIS} ms; then the minority is cut off from the
 * majority (a {@link Grudge}) while the flood goes on, so its logs grow
 * while it is cut off. Healing stops the flood and removes the cut. Jepsen
 * then kills and recovers every host; that needs rejoin or a cluster
 * restart, not built yet, so it is not done here. The flood is bounded by
 * {@link #MAX_CALLS} calls. One instance per fault.
 */
final class FloodNemesis implements Nemesis {
  static final long LEAD_MILLIS = 1_500;
  static final long INTERVAL_MICROS = 1_000;
  static final long MAX_CALLS = 50_000;

  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong ok = new AtomicLong();
  private volatile boolean flooding;
  private Thread flood;
  private PartitaClient client;
  private String detail = "";

  @Override
  public String name() {
    return "flood-minority";
  }

  @Override
  public List<Integer> inject(Hosts hosts, Random random) throws InterruptedException, java.io.IOException {
    final int count = hosts.addresses().size();
    // The minority is drawn from the hosts not killed for good (a dead host takes no flood).
    final List<Integer> shuffled = new ArrayList<>(hosts.survivors());
    Collections.shuffle(shuffled, random);
    final int size = Math.min(shuffled.size() - 1, 1 + random.nextInt(Grudge.minorityMax(count)));
    final List<Integer> minority = List.copyOf(shuffled.subList(0, Math.max(1, size)));
    final Grudge grudge = Grudge.halves(minority, count);
    final List<String> addresses = new ArrayList<>();
    for (int h : minority) {
      addresses.add(hosts.addresses().get(h));
    }
    client = minorityClient(addresses);
    final long firstId = random.nextLong() & 0x3fff_ffff_ffff_ffffL;
    flooding = true;
    flood = new Thread(() -> floodLoop(firstId), "nemesis-flood");
    flood.setDaemon(true);
    flood.start();
    try {
      TimeUnit.MILLISECONDS.sleep(LEAD_MILLIS);
      hosts.cut(grudge);
    } catch (InterruptedException | java.io.IOException | RuntimeException e) {
      stopFlood();
      throw e;
    }
    detail = "flooded " + minority + " for " + LEAD_MILLIS + " ms, then " + grudge.description();
    return minority;
  }

  @Override
  public void heal(Hosts hosts, List<Integer> targets) throws java.io.IOException, InterruptedException {
    try {
      stopFlood();
    } finally {
      hosts.healNetwork();
    }
    detail += "; " + sent.get() + " flood calls sent, " + ok.get() + " answered ok";
  }

  @Override
  public String detail() {
    return detail;
  }

  /**
   * A client of the minority's hosts only (no discovery of the others):
   * inserts whose partition the minority does not lead are answered
   * NOT_LEADER and not run, the rest are written on the minority.
   */
  private static PartitaClient minorityClient(List<String> addresses) {
    final PartitaClient c = new PartitaClient(ClientConfig.builder().clientName("fault-flood")
        .discoverHosts(false).callTimeout(Duration.ofSeconds(2)).connectTimeout(Duration.ofSeconds(5))
        .backpressureTimeout(Duration.ZERO).build());
    for (String address : addresses) {
      c.connect(address);
    }
    return c;
  }

  private void floodLoop(long firstId) {
    long next = System.nanoTime();
    while (flooding && sent.get() < MAX_CALLS) {
      final long id = firstId + sent.getAndIncrement();
      try {
        client.callAsync("FloodInsert", id, "flood " + id).whenComplete((ClientResponse r, Throwable t) -> {
          if (r != null && r.ok()) {
            ok.incrementAndGet();
          }
        });
      } catch (RuntimeException e) {
        // Backpressure or no connection: the flood is best effort.
      }
      next += TimeUnit.MICROSECONDS.toNanos(INTERVAL_MICROS);
      final long wait = next - System.nanoTime();
      if (wait > 0) {
        try {
          TimeUnit.NANOSECONDS.sleep(wait);
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  private void stopFlood() throws InterruptedException {
    flooding = false;
    if (flood != null) {
      flood.join(TimeUnit.SECONDS.toMillis(10));
    }
    if (client != null) {
      client.close();
    }
  }
}
