package org.partita.bench.voter.inprocess;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.bench.voter.AreaCodes;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.SourceFile;
import org.partita.server.database.Database;

/**
 * The Voter {@code Vote} procedure in process, on one partition, through
 * the database's public API (the cost of the Java procedure runtime and JNI
 * over the engine). Workloads, in this order:
 * <ul>
 *   <li>{@code compile} — compiling bench/voter/ddl.sql (ms).</li>
 *   <li>{@code async} — Vote submitted from a client thread through
 *       {@link Database#call} with up to 1,000 calls outstanding: encoding
 *       the invocation, routing, the site's queue and initiator, decoding
 *       the parameters, the procedure, two engine batches through JNI,
 *       result parsing, commit, and the futures. Reports calls per second
 *       and the process's CPU time per call (less sensitive than the rate
 *       to other work on a shared machine).</li>
 * </ul>
 * Usage: {@code InProcessVoterBenchmark DDL_FILE [seconds per workload]}.
 */
public final class InProcessVoterBenchmark {
  private static final int ARGUMENT_RING = 1 << 20;
  private static final int CONTESTANTS = 6;
  private static final long MAX_VOTES = 2;
  private static final String NAMES = "Edwina Burnam,Tabatha Gehling,Kelly Clauss,Jessie Alloway,"
      + "Alana Bregman,Jessie Eichman,Allie Rogalski,Nita Coster,Kurt Walser,Ericka Dieter,Loraine Nygren,Tania Mattioli";

  private InProcessVoterBenchmark() {}

  public static void main(String[] args) throws Exception {
    final Path ddl = Path.of(args.length > 0 ? args[0] : "bench/voter/ddl.sql");
    final double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 5;
    final long compileStart = System.nanoTime();
    CompiledCatalog catalog = null;
    for (int i = 0; i < 5; i++) {
      catalog = new CatalogCompiler(InProcessVoterBenchmark.class.getClassLoader())
          .compile(List.of(new SourceFile(ddl.toString(), Files.readString(ddl, StandardCharsets.UTF_8))));
    }
    System.out.printf("compile: %.1f ms per compile of %s (mean of 5, first included)%n",
        (System.nanoTime() - compileStart) / 5e6, ddl);
    final Object[][] votes = votes();
    try (Database db = Database.open(catalog, 1)) {
      check(db.callSync("Initialize", CONTESTANTS, NAMES));
      runAsync(db, votes, seconds / 3);
      final Run async = runAsync(db, votes, seconds);
      System.out.printf("async: %,.0f Vote/s, %.2f µs of process CPU per Vote"
          + " (1 partition, 1 client thread, 1,000 outstanding)%n", async.votesPerSecond(), async.cpuMicrosPerVote());
      final ResultTable standings = db.callSync("Results").results().get(0);
      System.out.println("standings:\n" + standings);
    }
  }

  private static Object[][] votes() {
    final Random random = new Random(42);
    final Object[][] votes = new Object[ARGUMENT_RING][];
    for (int i = 0; i < ARGUMENT_RING; i++) {
      final long areaCode = AreaCodes.CODES[random.nextInt(AreaCodes.CODES.length)];
      final long phone = areaCode * 10_000_000L + random.nextInt(10_000_000);
      votes[i] = new Object[] {phone, 1 + random.nextInt(CONTESTANTS), MAX_VOTES};
    }
    return votes;
  }

  /** Throughput and the process's CPU time per call of one run. */
  private record Run(double votesPerSecond, double cpuMicrosPerVote) {}

  /**
   * Vote from this thread through Database.call with at most 1,000 calls
   * outstanding, the thread woken when 100 have been answered.
   */
  private static Run runAsync(Database db, Object[][] votes, double seconds) {
    final CallWindow window = new CallWindow(1000, 100);
    final AtomicLong failures = new AtomicLong();
    final long cpuStart = processCpuNanos();
    final long start = System.nanoTime();
    final long end = start + (long) (seconds * 1e9);
    long n = 0;
    while ((n & 63) != 0 || System.nanoTime() < end) {
      window.acquire();
      db.call("Vote", votes[(int) (n & (ARGUMENT_RING - 1))]).thenAccept(r -> {
        if (!r.ok()) {
          failures.incrementAndGet();
        }
        window.release();
      });
      n++;
    }
    window.drain();
    final double elapsed = (System.nanoTime() - start) / 1e9;
    final long cpu = processCpuNanos() - cpuStart;
    if (failures.get() > 0) {
      throw new IllegalStateException(failures.get() + " Vote calls failed");
    }
    return new Run(n / elapsed, cpu / 1e3 / n);
  }

  /** CPU time of every thread of this process (JIT and GC included). */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static void check(ClientResponse r) {
    if (!r.ok()) {
      throw new IllegalStateException("call failed: " + r);
    }
  }
}
