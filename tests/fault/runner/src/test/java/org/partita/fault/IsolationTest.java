package org.partita.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/**
 * A host isolated from the others past the heartbeat timeout, on real
 * processes (docs/cluster.md, "Network partitions"): three hosts with K = 1
 * on 127.0.0.1–3 started by {@code scripts/cluster} (each in its own
 * cgroup), nftables rules in a table of this JVM's own cutting one host's
 * internal and metadata traffic, the Voter-like unique inserts of the set
 * workload under load through every host. While cut off the host
 * acknowledges nothing (writes sent to it alone stay unanswered); the
 * majority declares it dead and serves its partitions again; once healed
 * it reads that it was declared dead, rejoins by itself as a new
 * incarnation and gets its copies back; every acknowledged insert is then
 * read through every host, none of the writes sent to the cut-off host is
 * there, and every partition's two copies have equal checksums. The rules
 * and the hosts are removed even on failure (the hosts' close: the
 * firewall's table, {@code scripts/cluster stop}, the cgroups). Skipped,
 * saying why, without root and nft or without the built server.
 */
@Timeout(420)
class IsolationTest {
  /** The repository, from this module's directory (tests/fault/runner). */
  private static final Path ROOT = Path.of("../../..").toAbsolutePath().normalize();
  private static final int IN_FLIGHT = 32;

  @TempDir
  Path dir;

  @Test
  void shouldStopServingWhileCutOffLetTheMajorityCarryOnAndRejoinAfterHealing() throws Exception {
    assumeTrue(Firewall.available(), "nft is not installed (scripts/install-deps installs nftables)");
    assumeTrue("root".equals(System.getProperty("user.name")), "nftables rules need root");
    assumeTrue(Files.exists(ROOT.resolve("host-java/server/target/classpath.txt")),
        "the server is not built (scripts/build)");
    final RunOptions options = RunOptions.parse(new String[] {"--workload", "set", "--nemesis", "isolate",
        "--hosts", "3", "--kfactor", "1", "--results", dir.toString()}, ROOT);
    try (ClusterHosts hosts = new ClusterHosts(options, dir)) {
      hosts.startAll();
      final List<String> addresses = hosts.addresses();
      final int victim = victim(hosts);
      try (PartitaClient all = Worker.connect("isolation-load", addresses);
          PartitaClient victimOnly = alone(addresses.get(victim), Duration.ofSeconds(60))) {
        final Load load = new Load(all);
        load.start();
        final long bucket = bucketLedBy(victimOnly, load);
        TimeUnit.SECONDS.sleep(2);
        assertTrue(load.acknowledged.size() > 0, "inserts were acknowledged before the cut");

        hosts.cut(Grudge.isolate(victim, 3));
        final long cut = System.nanoTime();
        final List<CompletableFuture<ClientResponse>> stale = new ArrayList<>();
        final Set<Long> staleValues = new TreeSet<>();
        for (long v = 1_000_000_000L + bucket; staleValues.size() < 10; v += SetWorkload.BUCKETS) {
          staleValues.add(v);
          stale.add(victimOnly.callAsync("SetAdd", bucket, v));
        }
        hosts.awaitDeclaredDead(victim);
        final long declared = System.nanoTime();
        // The majority carries on: the cut-off host's partition is served by its other copy.
        final long servedAgain = firstInsert(all, bucket, load) - declared;
        System.out.printf("isolation: host %d declared dead %.1f s after the cut; its partition served again "
            + "%.1f s after that%n", victim, (declared - cut) / 1e9, servedAgain / 1e9);
        for (CompletableFuture<ClientResponse> call : stale) {
          assertFalse(call.isDone() && !call.isCompletedExceptionally() && call.join().ok(),
              "an insert sent to the cut-off host was acknowledged");
        }
        final long acknowledgedAtCut = load.acknowledged.size();

        hosts.healNetwork();
        final long healed = System.nanoTime();
        hosts.awaitRejoined(victim);
        System.out.printf("isolation: healed; host %d rejoined and every partition had two copies again "
            + "%.1f s later%n", victim, (System.nanoTime() - healed) / 1e9);
        for (CompletableFuture<ClientResponse> call : stale) {
          final ClientResponse answer = call.handle((a, e) -> e == null ? a : null).get(90, TimeUnit.SECONDS);
          assertTrue(answer == null || !answer.ok(), "an insert sent to the cut-off host was acknowledged");
        }
        TimeUnit.SECONDS.sleep(2);
        load.stop();
        assertTrue(load.acknowledged.size() > acknowledgedAtCut, "inserts were acknowledged after the cut");

        final Set<Long> state = finalState(addresses);
        for (long v : load.acknowledged) {
          assertTrue(state.contains(v), "acknowledged insert " + v + " is missing");
        }
        for (long v : staleValues) {
          assertFalse(state.contains(v), "insert " + v + " sent to the cut-off host is in the final state");
        }
        final ReplicaVerdict copies = ReplicaVerdict.of(1, CopyChecksums.read(addresses, List.of(0, 1, 2)), 0);
        assertTrue(copies.passed(), copies.text());
        assertTrue(copies.text().startsWith("yes (3 partitions, 6 copies"), copies.text());
      }
      final String log = Files.readString(dir.resolve("cluster/host-" + victim + ".log"), StandardCharsets.UTF_8);
      assertTrue(log.contains("partita: rejoining: the metadata group declared this host's incarnation"), log);
      hosts.stopAll();
    }
  }

  /** A host that does not lead the metadata group (its isolation then needs no Raft election). */
  private static int victim(ClusterHosts hosts) throws InterruptedException {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      if (hosts.metadataLeader().isPresent()) {
        return (hosts.metadataLeader().getAsInt() + 1) % 3;
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    throw new AssertionError("no host logged that it leads the metadata group");
  }

  /** A bucket whose partition {@code victimOnly}'s host leads: the first its own insert succeeds in. */
  private static long bucketLedBy(PartitaClient victimOnly, Load load) {
    for (long b = 0; b < SetWorkload.BUCKETS; b++) {
      final long v = 2_000_000_000L + b;
      final ClientResponse answer = victimOnly.callAsync("SetAdd", b, v).join();
      if (answer.ok()) {
        load.acknowledged.add(v);
        return b;
      }
    }
    throw new AssertionError("the host leads none of the " + SetWorkload.BUCKETS + " buckets");
  }

  /** When an insert into {@code bucket} through {@code client} first succeeded (retried every 50 ms, 60 s). */
  private static long firstInsert(PartitaClient client, long bucket, Load load) throws InterruptedException {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    for (long v = 3_000_000_000L + bucket; System.nanoTime() < deadline; v += SetWorkload.BUCKETS) {
      final ClientResponse answer = client.callAsync("SetAdd", bucket, v).handle((a, e) -> e == null ? a : null)
          .join();
      if (answer != null && answer.ok()) {
        load.acknowledged.add(v);
        return System.nanoTime();
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
    throw new AssertionError("bucket " + bucket + " was not served within 60 s of the declaration");
  }

  /** The set read through each host alone; every host must answer the same. */
  private static Set<Long> finalState(List<String> addresses) throws InterruptedException {
    Set<Long> first = null;
    for (String address : addresses) {
      final Set<Long> state = new TreeSet<>();
      try (PartitaClient client = Worker.connect("isolation-final", List.of(address))) {
        for (long b = 0; b < SetWorkload.BUCKETS; b++) {
          final ResultTable table = FinalReads.callUntilOk(client, "SetReadBucket", b).results().get(0);
          while (table.advanceRow()) {
            state.add(table.getLong(0));
          }
        }
      }
      if (first == null) {
        first = state;
      } else {
        assertEquals(first, state, "the set read through " + address + " differs from the first host's");
      }
    }
    return first;
  }

  private static PartitaClient alone(String address, Duration callTimeout) {
    final PartitaClient client = new PartitaClient(ClientConfig.builder().clientName("isolation-victim")
        .discoverHosts(false).connectTimeout(Duration.ofSeconds(5)).callTimeout(callTimeout).build());
    client.connect(address);
    return client;
  }

  /** Unique inserts with at most {@link #IN_FLIGHT} in flight until stopped; records the acknowledged ones. */
  private static final class Load {
    final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
    private final PartitaClient client;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong next = new AtomicLong(1);
    private final Semaphore inFlight = new Semaphore(IN_FLIGHT);
    private final Thread thread = new Thread(this::run, "isolation-load");

    Load(PartitaClient client) {
      this.client = client;
    }

    void start() {
      thread.start();
    }

    private void run() {
      while (running.get()) {
        // At most about a thousand calls a second: calls failing fast (a host restarting) do not spin.
        LockSupport.parkNanos(1_000_000);
        inFlight.acquireUninterruptibly();
        final long v = next.getAndIncrement();
        try {
          client.callAsync("SetAdd", SetWorkload.bucket(v), v).whenComplete((answer, error) -> {
            if (error == null && answer.ok()) {
              acknowledged.add(v);
            }
            inFlight.release();
          });
        } catch (RuntimeException e) {
          inFlight.release();
        }
      }
    }

    void stop() throws InterruptedException {
      running.set(false);
      thread.join(30_000);
      assertTrue(inFlight.tryAcquire(IN_FLIGHT, 60, TimeUnit.SECONDS), "the load's calls were answered");
      inFlight.release(IN_FLIGHT);
    }
  }
}
