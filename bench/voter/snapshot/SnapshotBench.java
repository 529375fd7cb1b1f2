// SnapshotBench: the snapshot benchmark of docs/durability.md against a running
// Voter server (bench/voter/snapshot/run starts one). Workloads, in order:
//   load        — VOTES votes through the asynchronous client, as fast as IN_FLIGHT allows
//   quiet-gaps  — the same firehose for SECONDS s: the longest gap between two answers, no snapshot
//   snapshot    — the same firehose while @SnapshotSave runs: its time, MB/s, and the longest gap
// Prints one line per figure ("name value"); the run script adds the recovery times.
// Usage: java -cp CLASSPATH SnapshotBench.java HOST:PORT VOTES SECONDS
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

public final class SnapshotBench {
  private static final int IN_FLIGHT = 1000;
  private static final String NAMES = "Edwina Burnam,Tabatha Gehling,Kelly Clauss,Jessie Alloway,Alana Bregman,"
      + "Jessie Eichman";

  private final PartitaClient client;
  private final Semaphore slots = new Semaphore(IN_FLIGHT);
  private final AtomicLong lastAnswer = new AtomicLong(System.nanoTime());
  private final AtomicLong longestGap = new AtomicLong();
  private final AtomicLong answered = new AtomicLong();
  private long phone = 2_000_000_000L;

  private SnapshotBench(PartitaClient client) {
    this.client = client;
  }

  public static void main(String[] args) throws Exception {
    final ClientConfig config = ClientConfig.builder().clientName("snapshot-bench").build();
    try (PartitaClient client = new PartitaClient(config)) {
      client.connect(args[0]);
      final SnapshotBench bench = new SnapshotBench(client);
      bench.run(Long.parseLong(args[1]), Integer.parseInt(args[2]));
    }
  }

  private void run(long votes, int seconds) throws Exception {
    client.callAsync("Initialize", 6, NAMES).join();
    final long loadStart = System.nanoTime();
    for (long i = 0; i < votes; i++) {
      vote();
    }
    slots.acquire(IN_FLIGHT);
    slots.release(IN_FLIGHT);
    System.out.printf("load_votes %d%nload_seconds %.1f%n", votes, (System.nanoTime() - loadStart) / 1e9);
    System.out.printf("quiet_longest_gap_ms %.2f%n", firehose(seconds, false) / 1e6);
    System.out.printf("snapshot_longest_gap_ms %.2f%n", firehose(seconds, true) / 1e6);
  }

  /** Votes for `seconds` s (taking a snapshot at the start when asked); returns the longest gap between answers, ns. */
  private long firehose(int seconds, boolean snapshot) throws Exception {
    slots.acquire(IN_FLIGHT);
    slots.release(IN_FLIGHT);
    longestGap.set(0);
    lastAnswer.set(System.nanoTime());
    final long before = answered.get();
    final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    final long[] saveNanos = {0};
    final Thread saver = new Thread(() -> {
      final long start = System.nanoTime();
      final ClientResponse r = client.callAsync("@SnapshotSave").join();
      saveNanos[0] = System.nanoTime() - start;
      if (!r.ok()) {
        System.out.println("snapshot_error " + r.message());
        return;
      }
      final ResultTable t = r.results().get(0);
      t.advanceRow();
      System.out.printf("snapshot_bytes %d%nsnapshot_ms %d%nsnapshot_mb_per_s %.1f%nsnapshot_longest_partition_pause_us %d%n"
          + "snapshot_most_cpu_per_chunk_us %d%n", t.getLong(2), t.getLong(3), t.getDouble(4), t.getLong(8), t.getLong(9));
    });
    if (snapshot) {
      saver.start();
    }
    while (System.nanoTime() < end || snapshot && saver.isAlive()) {
      vote();
    }
    slots.acquire(IN_FLIGHT);
    slots.release(IN_FLIGHT);
    if (snapshot) {
      saver.join();
      System.out.printf("snapshot_call_ms %.0f%n", saveNanos[0] / 1e6);
    }
    final double s = (System.nanoTime() - end + TimeUnit.SECONDS.toNanos(seconds)) / 1e9;
    System.out.printf("%s_votes_per_s %.0f%n", snapshot ? "snapshot" : "quiet", (answered.get() - before) / s);
    return longestGap.get();
  }

  private void vote() throws InterruptedException {
    slots.acquire();
    final long p = phone++;
    client.callAsync("Vote", p, 1 + (int) (p % 6), 1_000_000L).whenComplete((r, e) -> {
      final long now = System.nanoTime();
      final long gap = now - lastAnswer.getAndSet(now);
      longestGap.accumulateAndGet(gap, Math::max);
      answered.incrementAndGet();
      slots.release();
    });
  }
}
