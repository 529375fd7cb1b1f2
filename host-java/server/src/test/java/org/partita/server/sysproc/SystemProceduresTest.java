package org.partita.server.sysproc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.partita.server.sysproc.SysprocFixture.rows;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.client.ClientResponse;
import org.partita.client.ClientResponse.Status;
import org.partita.client.ResultTable;
import org.partita.server.stats.ProcedureStatistics;

@Timeout(60)
class SystemProceduresTest {
  private SysprocFixture f;

  @AfterEach
  void close() throws Exception {
    if (f != null) {
      f.close();
    }
  }

  private static void assertFailure(ClientResponse r, Status status, String errorName, String... fragments) {
    assertEquals(status, r.status(), r::toString);
    assertEquals(errorName, r.errorName(), r::toString);
    for (String fragment : fragments) {
      assertTrue(r.message().contains(fragment), () -> "'" + fragment + "' not in: " + r.message());
    }
  }

  @Test
  void shouldRejectUnknownSystemProcedureListingTheKnownOnes() throws Exception {
    f = new SysprocFixture(1);
    assertFailure(f.call("@Nope"), Status.REJECTED, "PROCEDURE_NOT_FOUND", "system procedure @Nope does not exist",
        "@AdHoc, @Explain, @ExplainProc, @Statistics, @SystemCatalog, @Ping, @Shutdown");
  }

  @Test
  void shouldRejectNullNameAsUnknown() throws Exception {
    f = new SysprocFixture(1);
    assertFailure(f.call(null), Status.REJECTED, "PROCEDURE_NOT_FOUND", "system procedure null does not exist");
  }

  @Test
  void shouldMatchNamesIgnoringCase() throws Exception {
    f = new SysprocFixture(1);
    assertEquals(List.of("pong"), rows(f.table("@PING")).stream().map(r -> r.split("\\|")[0]).toList());
    assertTrue(f.call("@systemcatalog", "procedures").ok());
  }

  @Test
  void shouldAnswerPingWithHostIdAndServerTime() throws Exception {
    f = new SysprocFixture(1);
    final long before = System.currentTimeMillis() * 1000;
    final ResultTable t = f.table("@Ping");
    assertEquals(List.of("RESPONSE", "HOST_ID", "SERVER_TIME"), SysprocFixture.columns(t));
    t.advanceRow();
    assertEquals("pong", t.getString(0));
    assertEquals(3, t.getLong(1));
    assertTrue(t.getTimestampMicros(2) >= before);
  }

  @Test
  void shouldRejectParametersOfPingNamingTheCount() throws Exception {
    f = new SysprocFixture(1);
    assertFailure(f.call("@Ping", 1L), Status.REJECTED, "BAD_PARAMETER", "@Ping takes 0 parameter(s) (), got 1");
  }

  @Test
  void shouldAnswerShutdownBeforeRunningTheActionOnceOnItsOwnThread() throws Exception {
    f = new SysprocFixture(1);
    final CompletableFuture<String> ranOn = new CompletableFuture<>();
    final AtomicInteger runs = new AtomicInteger();
    final SystemProcedures sysprocs = new SystemProcedures(f.db, new ProcedureStatistics(), List::of,
        () -> SysprocFixture.IDENTITY, () -> {
          runs.incrementAndGet();
          ranOn.complete(Thread.currentThread().getName());
        });
    final CompletableFuture<ClientResponse> first = new CompletableFuture<>();
    assertTrue(sysprocs.call("@Shutdown", new Object[0], first::complete));
    assertTrue(first.get(5, TimeUnit.SECONDS).ok());
    assertEquals("partita-shutdown", ranOn.get(5, TimeUnit.SECONDS));
    final CompletableFuture<ClientResponse> second = new CompletableFuture<>();
    assertTrue(sysprocs.call("@Shutdown", null, second::complete));
    assertTrue(second.get(5, TimeUnit.SECONDS).ok());
    assertEquals(1, runs.get(), "the shutdown action runs once");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void shouldChangeTheSchemaWithAdHocDdlThenWriteAndReadIt(int partitions) throws Exception {
    f = new SysprocFixture(partitions);
    assertTrue(f.call("@AdHoc", "CREATE TABLE notes (id BIGINT NOT NULL PRIMARY KEY, body VARCHAR(40))").ok());
    assertTrue(f.call("@AdHoc", "PARTITION TABLE notes ON COLUMN id").ok());
    for (long id = 1; id <= 5; id++) {
      assertTrue(f.call("@AdHoc", "INSERT INTO notes VALUES (?, ?)", id, "note " + id).ok());
    }
    assertEquals(List.of("5"), rows(f.table("@AdHoc", "SELECT COUNT(*) FROM notes")));
    assertEquals(List.of("note 4"), rows(f.table("@AdHoc", "SELECT body FROM notes WHERE id = ?", 4L)));
    assertTrue(rows(f.table("@SystemCatalog", "TABLES")).stream().anyMatch(r -> r.startsWith("NOTES|TABLE|ID|")));
  }

  @Test
  void shouldAnswerAdHocSqlErrorAsGracefulFailure() throws Exception {
    f = new SysprocFixture(1);
    assertFailure(f.call("@AdHoc", "SELECT nothing FROM nowhere"), Status.GRACEFUL_FAILURE, "SQL_ERROR", "NOWHERE");
  }

  @Test
  void shouldRejectAdHocWithoutSql() throws Exception {
    f = new SysprocFixture(1);
    assertFailure(f.call("@AdHoc"), Status.REJECTED, "BAD_PARAMETER",
        "@AdHoc takes at least 1 parameter(s) (sql [, parameters...]), got 0");
    assertFailure(f.call("@AdHoc", (Object) null), Status.REJECTED, "BAD_PARAMETER",
        "@AdHoc parameter 1 (sql) must be non-empty VARCHAR text, got NULL");
    assertFailure(f.call("@AdHoc", 42L), Status.REJECTED, "BAD_PARAMETER", "got Long 42");
    assertFailure(f.call("@AdHoc", "  "), Status.REJECTED, "BAD_PARAMETER", "parameter 1 (sql)");
  }

  @Test
  void shouldExplainAStatementOneLinePerRow() throws Exception {
    f = new SysprocFixture(2);
    final ResultTable t = f.table("@Explain", "SELECT name FROM items WHERE id = ?");
    assertEquals(List.of("PLAN"), SysprocFixture.columns(t));
    final List<String> lines = rows(t);
    assertTrue(lines.get(0).startsWith("SINGLE PARTITION (partition of parameter 1)"), lines::toString);
    assertTrue(lines.stream().anyMatch(l -> l.contains("INDEX SCAN ITEMS")), lines::toString);
  }

  @Test
  void shouldAnswerExplainOfABadStatementAsSqlError() throws Exception {
    f = new SysprocFixture(1);
    assertFailure(f.call("@Explain", "SELECT missing FROM items"), Status.GRACEFUL_FAILURE, "SQL_ERROR", "MISSING");
    assertFailure(f.call("@Explain"), Status.REJECTED, "BAD_PARAMETER", "@Explain takes 1 parameter(s) (sql)");
  }

  @Test
  void shouldExplainEveryStatementOfAProcedure() throws Exception {
    f = new SysprocFixture(2);
    final ResultTable java = f.table("@ExplainProc", "renameitem");
    assertEquals(List.of("STATEMENT_NAME", "PLAN"), SysprocFixture.columns(java));
    final List<String> lines = rows(java);
    assertTrue(lines.get(0).startsWith("rename|SINGLE PARTITION"), lines::toString);
    assertTrue(lines.stream().anyMatch(l -> l.contains("UPDATE ITEMS")), lines::toString);
    assertTrue(rows(f.table("@ExplainProc", "ItemName")).get(0).startsWith("SQL|SINGLE PARTITION"));
  }

  @Test
  void shouldRejectExplainOfAnUnknownProcedure() throws Exception {
    f = new SysprocFixture(1);
    assertFailure(f.call("@ExplainProc", "Missing"), Status.REJECTED, "PROCEDURE_NOT_FOUND", "procedure Missing does not exist");
  }

  @Test
  void shouldRefuseWorkWhenQueuesAreFullWithoutAnswering() throws Exception {
    f = new SysprocFixture(2, 4, 1);
    Hold.started = new java.util.concurrent.CountDownLatch(1);
    Hold.release = new java.util.concurrent.CountDownLatch(1);
    final CompletableFuture<ClientResponse> held = new CompletableFuture<>();
    assertTrue(f.db.offerCall("Hold", new Object[0], held::complete));
    assertTrue(Hold.started.await(10, TimeUnit.SECONDS));
    final AtomicInteger answers = new AtomicInteger();
    final java.util.concurrent.Semaphore answered = new java.util.concurrent.Semaphore(0);
    int accepted = 0;
    while (f.sysprocs.call("@AdHoc", new Object[] {"SELECT name FROM items WHERE id = 1"}, r -> {
      answers.incrementAndGet();
      answered.release();
    })) {
      accepted++;
      assertTrue(accepted < 100, "a site queue of 4 accepted " + accepted + " calls");
    }
    assertFalse(f.sysprocs.call("@Statistics", new Object[] {"TABLE"}, r -> answers.incrementAndGet()));
    assertFalse(f.sysprocs.call("@Statistics", new Object[] {"MEMORY"}, r -> answers.incrementAndGet()));
    assertFalse(f.sysprocs.call("@AdHoc", new Object[] {"CREATE TABLE t (a INTEGER)"}, r -> answers.incrementAndGet()),
        "the coordinator's one place is taken");
    assertEquals(0, answers.get(), "no answer to work that was refused or is still queued");
    Hold.release.countDown();
    assertTrue(held.get(10, TimeUnit.SECONDS).ok());
    // The queued calls drain after the hold; only then is there room again.
    assertTrue(answered.tryAcquire(accepted, 10, TimeUnit.SECONDS), "every accepted call is answered");
    assertEquals(accepted, answers.get(), "every accepted call is answered once");
    assertTrue(f.call("@Statistics", "TABLE").ok());
    assertEquals(accepted, answers.get(), "and only once");
  }

  @Test
  void shouldAnswerAFailingSourceAsUnexpectedFailure() throws Exception {
    f = new SysprocFixture(1);
    final SystemProcedures sysprocs = new SystemProcedures(f.db, new ProcedureStatistics(), () -> {
      throw new IllegalStateException("connections unavailable");
    }, () -> SysprocFixture.IDENTITY, () -> { });
    final CompletableFuture<ClientResponse> answer = new CompletableFuture<>();
    assertTrue(sysprocs.call("@Statistics", new Object[] {"CONNECTIONS"}, answer::complete));
    assertFailure(answer.get(5, TimeUnit.SECONDS), Status.UNEXPECTED_FAILURE, "INTERNAL",
        "@Statistics failed", "connections unavailable");
  }

  @Test
  void shouldRecogniseSystemProcedureNames() {
    assertTrue(SystemProcedures.isSystemProcedure("@Anything"));
    assertFalse(SystemProcedures.isSystemProcedure("Vote"));
    assertFalse(SystemProcedures.isSystemProcedure(null));
  }
}
