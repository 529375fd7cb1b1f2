package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.proto.ClientMessage;
import org.partita.client.proto.Invocation;
import org.partita.client.proto.InvocationResponse;
import org.partita.client.proto.Parameter;
import org.partita.integration.procs.VoteThenJoinForever;
import org.partita.proto.ErrorCode;

/**
 * The server's query limits end to end (docs/sql.md, "Bounds on one
 * statement"): a real two-site Voter server started with
 * {@code --query-timeout 2s --query-memory 256m}. A procedure that votes and
 * then would run forever is stopped at 2 s on a partition serving a Voter
 * load; Voter calls keep being answered during its window (the other
 * partition's) and after it (both); its vote is rolled back. A cross join
 * needing gigabytes fails with QUERY_MEMORY_LIMIT; a time limit over an hour
 * is refused.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class QueryLimitsTest {
  private static final long LIMIT_MILLIS = 2000;
  private static final long FOREVER_PHONE = 6175550000L;
  private static ServerProcess server;
  private static PartitaClient client;

  /** What the other partition's Voter calls take during the statement's window, at most (a loaded machine). */
  private static final long USUAL_LATENCY_MILLIS = 250;

  /** One Voter answer: when its call was sent, when it arrived and whether it succeeded. */
  private record Answer(long sentNanos, long nanos, boolean ok, String what) {}

  @BeforeAll
  static void start() throws Exception {
    final URL forever = QueryLimitsTest.class.getResource("/forever.sql");
    final Path testClasses = Path.of(VoteThenJoinForever.class.getProtectionDomain().getCodeSource().getLocation()
        .toURI());
    server = ServerProcess.start(List.of("--schema", ServerProcess.VOTER_DDL + "," + Path.of(forever.toURI()),
        "--classes", ServerProcess.VOTER_CLASSES + "," + testClasses, "--sites", "2",
        "--query-timeout", "2s", "--query-memory", "256m"));
    client = Clients.connect(server, "query-limits-test");
    assertTrue(client.call("Initialize", 6, "A,B,C,D,E,F").ok());
  }

  @AfterAll
  static void stop() throws Exception {
    Clients.closeAll(client, server);
  }

  @Test
  void shouldStopAStatementAtTheTimeLimitWhileTheVoterLoadGoesOn() throws Exception {
    final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
    final AtomicBoolean loading = new AtomicBoolean(true);
    final Thread load = new Thread(() -> voterLoad(answers, loading), "voter-load");
    load.start();
    final long sent;
    final long answered;
    final ClientResponse stopped;
    try {
      awaitAnswers(answers, 0, 200);
      sent = System.nanoTime();
      stopped = client.callAsync("VoteThenJoinForever", FOREVER_PHONE).get(60, TimeUnit.SECONDS);
      answered = System.nanoTime();
      awaitAnswers(answers, answered, 200);
    } finally {
      loading.set(false);
      load.join(TimeUnit.SECONDS.toMillis(30));
    }
    assertEquals(ErrorCode.ERROR_CODE_TRANSACTION_TIMEOUT, stopped.errorCode(), stopped::toString);
    assertTrue(stopped.message().contains("past its time limit of 2.000 s"), stopped.message());
    assertTrue(answered - sent >= TimeUnit.MILLISECONDS.toNanos(LIMIT_MILLIS), "stopped before its limit");
    final long during = answers.stream().filter(a -> a.sentNanos() > sent && a.nanos() < answered
        && a.nanos() - a.sentNanos() < TimeUnit.MILLISECONDS.toNanos(USUAL_LATENCY_MILLIS)).count();
    assertTrue(during >= 100, "only " + during + " Voter calls were sent and answered within "
        + USUAL_LATENCY_MILLIS + " ms during the statement's window");
    final List<Answer> failed = answers.stream().filter(a -> !a.ok()).toList();
    assertTrue(failed.isEmpty(), () -> failed.size() + " Voter calls failed, e.g. " + failed.get(0).what());
    assertEquals(0, Clients.queryLong(client, "SELECT COUNT(*) FROM votes WHERE phone_number = ?", FOREVER_PHONE),
        "the statement's vote was rolled back");
  }

  /** Votes from phones of many area codes (both partitions), about one call per millisecond, until told to stop. */
  private static void voterLoad(ConcurrentLinkedQueue<Answer> answers, AtomicBoolean loading) {
    for (long i = 0; loading.get(); i++) {
      final long phone = 2125550000L + (i % 5000) * 7;
      final long sentNanos = System.nanoTime();
      client.callAsync((response, failure) -> answers.add(new Answer(sentNanos, System.nanoTime(),
          failure == null && response.ok(), failure != null ? failure.toString() : response.toString())),
          "Vote", phone, (int) (1 + i % 6), 1_000_000L);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
  }

  /** Waits (at most 60 s) until {@code count} answers arrived after {@code since}. */
  private static void awaitAnswers(ConcurrentLinkedQueue<Answer> answers, long since, int count)
      throws InterruptedException {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (answers.stream().filter(a -> a.nanos() > since).count() < count) {
      assertTrue(System.nanoTime() < deadline, "the Voter load got no " + count + " answers in 60 s");
      Thread.sleep(20);
    }
  }

  @Test
  void shouldFailACrossJoinNeedingGigabytesAtTheMemoryBound() throws Exception {
    final ClientResponse r = client.callAsync(Duration.ofSeconds(60), "@AdHoc",
        "SELECT DISTINCT a.area_code, b.area_code, c.area_code FROM area_code_state a, area_code_state b, "
            + "area_code_state c").get(90, TimeUnit.SECONDS);
    assertEquals(ErrorCode.ERROR_CODE_QUERY_MEMORY_LIMIT, r.errorCode(), r::toString);
    assertTrue(r.message().contains("(268435456 bytes, --query-memory)"), r.message());
    assertTrue(client.call("@AdHoc", "SELECT COUNT(*) FROM contestants").ok(), "the server still answers");
  }

  @Test
  void shouldCancelTheCallersOwnRunningCall() throws Exception {
    final var running = client.callAsync(Duration.ofSeconds(60), "VoteThenJoinForever", FOREVER_PHONE + 1);
    ClientResponse cancelled = null;
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!running.isDone() && System.nanoTime() < deadline) {
      cancelled = client.call("@CancelQuery");
      if (cancelled.results().get(0).rowCount() > 0) {
        break;
      }
    }
    final ClientResponse r = running.get(60, TimeUnit.SECONDS);
    assertEquals(ErrorCode.ERROR_CODE_CANCELLED, r.errorCode(), r::toString);
    assertTrue(cancelled != null && cancelled.results().get(0).advanceRow());
    assertEquals("VoteThenJoinForever", cancelled.results().get(0).getString(0));
    assertEquals(0, Clients.queryLong(client, "SELECT COUNT(*) FROM votes WHERE phone_number = ?",
        FOREVER_PHONE + 1), "the cancelled call's vote was rolled back");
  }

  /** The wire's unsigned 32-bit timeout_millis; the server reads values past 2^31 - 1 as 2^31 - 1 ms. */
  @Test
  void shouldRefuseATimeLimitOverAnHour() throws Exception {
    for (Map.Entry<Integer, String> over : Map.of(3_600_001, "3600001 ms", -1, "2147483647 ms").entrySet()) {
      try (RawConnection c = new RawConnection(server.clientPort())) {
        c.login(1);
        c.frame(ClientMessage.newBuilder().setInvocation(Invocation.newBuilder().setClientHandle(1)
            .setProcedure("@AdHoc").addParameters(Parameter.newBuilder().setText("SELECT 1 FROM contestants"))
            .setTimeoutMillis(over.getKey())).build().toByteArray());
        final InvocationResponse r = c.read().getResponse();
        assertEquals(ErrorCode.ERROR_CODE_BAD_PARAMETER.getNumber(), r.getErrorCode(), r.getMessage());
        assertTrue(r.getMessage().contains("timeout of " + over.getValue() + " is over the longest allowed"),
            r.getMessage());
      }
    }
  }
}
