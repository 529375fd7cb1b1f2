package org.partita.server.database;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.bench.voter.AreaCodes;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.compiler.SourceFile;

/**
 * The Voter {@code Vote} procedure in process, on one partition (the
 * issue's "Java procedure runtime + JNI" figure). Workloads, in this order:
 * <ul>
 *   <li>{@code compile} — compiling bench/voter/ddl.sql (ms).</li>
 *   <li>{@code site-loop} — Vote called back to back on the site thread:
 *       argument conversion, the procedure, two engine batches through JNI,
 *       result parsing, commit. No thread hand-off.</li>
 *   <li>{@code async} — Vote submitted from a client thread through
 *       {@link Database#call} with up to 1,000 calls outstanding: adds the
 *       queue and the futures.</li>
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
      runSiteLoop(db, votes, seconds / 3);
      final double siteLoop = runSiteLoop(db, votes, seconds);
      System.out.printf("site-loop: %,.0f Vote/s (%.2f µs per transaction)%n", siteLoop, 1e6 / siteLoop);
      runAsync(db, votes, seconds / 3);
      final double async = runAsync(db, votes, seconds);
      System.out.printf("async: %,.0f Vote/s (1 partition, 1 client thread, 1,000 outstanding)%n", async);
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

  /** Vote back to back on the site thread for {@code seconds}; returns transactions per second. */
  private static double runSiteLoop(Database db, Object[][] votes, double seconds) throws InterruptedException {
    final Site site = db.site(0);
    final CompiledProcedure vote = db.catalog().procedure("Vote").orElseThrow();
    final AtomicLong done = new AtomicLong();
    final AtomicLong nanos = new AtomicLong();
    final CountDownLatch finished = new CountDownLatch(1);
    site.submit(() -> {
      final long start = System.nanoTime();
      final long end = start + (long) (seconds * 1e9);
      long n = 0;
      long timestamp = System.currentTimeMillis() * 1000;
      while ((n & 1023) != 0 || System.nanoTime() < end) {
        final ClientResponse r = site.context().run(vote, votes[(int) (n & (ARGUMENT_RING - 1))], timestamp++);
        if (!r.ok()) {
          throw new IllegalStateException("Vote failed: " + r);
        }
        n++;
      }
      nanos.set(System.nanoTime() - start);
      done.set(n);
      finished.countDown();
    });
    finished.await();
    return done.get() / (nanos.get() / 1e9);
  }

  /** Vote from this thread through Database.call with bounded outstanding calls. */
  private static double runAsync(Database db, Object[][] votes, double seconds) throws InterruptedException {
    final Semaphore outstanding = new Semaphore(1000);
    final AtomicLong failures = new AtomicLong();
    final long start = System.nanoTime();
    final long end = start + (long) (seconds * 1e9);
    long n = 0;
    while (System.nanoTime() < end) {
      outstanding.acquire();
      db.call("Vote", votes[(int) (n & (ARGUMENT_RING - 1))]).thenAccept(r -> {
        if (!r.ok()) {
          failures.incrementAndGet();
        }
        outstanding.release();
      });
      n++;
    }
    outstanding.acquire(1000);
    final double elapsed = (System.nanoTime() - start) / 1e9;
    outstanding.release(1000);
    if (failures.get() > 0) {
      throw new IllegalStateException(failures.get() + " Vote calls failed");
    }
    return n / elapsed;
  }

  private static void check(ClientResponse r) {
    if (!r.ok()) {
      throw new IllegalStateException("call failed: " + r);
    }
  }
}
