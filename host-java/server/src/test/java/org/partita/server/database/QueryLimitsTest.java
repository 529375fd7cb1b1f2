package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.SourceFile;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * The database's time limits and cancel (docs/sql.md, "Bounds on one
 * statement"): a transaction past its limit, or cancelled, is rolled back
 * whole (even when its procedure catches the exception), answered
 * TRANSACTION_TIMEOUT or CANCELLED and reported aborted to the commit
 * pipeline (which a command log records for replay to skip); a call's own
 * limit replaces the default and one over the longest allowed is refused.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class QueryLimitsTest {
  private static final String SCHEMA = String.join("\n",
      "CREATE TABLE p (id BIGINT NOT NULL PRIMARY KEY, note VARCHAR(20));",
      "PARTITION TABLE p ON COLUMN id;",
      "CREATE TABLE r (x INTEGER NOT NULL);",
      "CREATE TABLE w (k BIGINT NOT NULL);",
      "CREATE PROCEDURE PARTITION ON TABLE p COLUMN id FROM CLASS "
          + "org.partita.server.database.procs.WriteThenJoinForever;",
      "CREATE PROCEDURE PARTITION ON TABLE p COLUMN id FROM CLASS "
          + "org.partita.server.database.procs.WriteThenSwallowTimeout;");
  private static final String FOREVER = "SELECT COUNT(*) FROM r a, r b, r c, r d WHERE a.x + b.x + c.x + d.x < 0";
  private static final long CLIENT = 42;

  private Database db;
  private final RecordingPipeline pipeline = new RecordingPipeline();

  /** Runs answers at once and remembers which transactions it was told were aborted (CommitPipeline#aborted). */
  private static final class RecordingPipeline implements CommitPipeline {
    final List<TxnHeader> aborted = new CopyOnWriteArrayList<>();

    @Override
    public void sequenced(TxnHeader header, SequencedItem item) {}

    @Override
    public void release(TxnHeader header, SequencedItem item, Runnable answer) {
      answer.run();
    }

    @Override
    public void aborted(TxnHeader header) {
      aborted.add(header);
    }
  }

  /** The one transaction reported aborted is on {@code partition}. */
  private void assertAbortedOn(int partition) {
    assertEquals(1, pipeline.aborted.size(), pipeline.aborted::toString);
    assertEquals(partition, pipeline.aborted.get(0).id().partition());
  }

  @BeforeEach
  void open() throws Exception {
    db = Database.open(new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("limits.sql", SCHEMA))), 2, 1024, 16, pipeline,
        new QueryLimits(300, 1L << 30));
    final StringBuilder values = new StringBuilder();
    for (int x = 0; x < 300; x++) {
      values.append(x == 0 ? "" : ", ").append('(').append(x).append(')');
    }
    assertTrue(db.adHocSync("INSERT INTO r VALUES " + values).ok());
  }

  @AfterEach
  void close() throws Exception {
    db.close();
  }

  private CompletableFuture<ClientResponse> call(String procedure, int timeoutMillis, Object... parameters) {
    final CompletableFuture<ClientResponse> answer = new CompletableFuture<>();
    final Invocation invocation = Invocation.of(procedure, parameters, CLIENT, 1, timeoutMillis);
    if (procedure.equals("@AdHoc")) {
      assertTrue(db.offerAdHoc(invocation, (String) parameters[0], new Object[0], answer::complete));
    } else {
      assertTrue(db.offerCall(invocation, answer::complete));
    }
    return answer;
  }

  private long count(String table) {
    final ClientResponse r = db.adHocSync("SELECT COUNT(*) FROM " + table);
    r.results().get(0).advanceRow();
    return r.results().get(0).getLong(0);
  }

  @Test
  void shouldStopAProcedureAtTheDefaultLimitAndUndoItsWrite() throws Exception {
    final ClientResponse r = call("WriteThenJoinForever", 0, 5L).get(60, TimeUnit.SECONDS);
    assertEquals(ErrorCode.ERROR_CODE_TRANSACTION_TIMEOUT, r.errorCode(), r::toString);
    assertTrue(r.message().contains("past its time limit of 0.300 s"), r.message());
    assertEquals(0, count("p"), "the procedure's insert was undone");
    assertAbortedOn(db.partitionMap().partitionOf(5L));
  }

  @Test
  void shouldFailAProcedureThatCatchesItsTimeLimitAndKeepNothing() throws Exception {
    final ClientResponse r = call("WriteThenSwallowTimeout", 0, 7L).get(60, TimeUnit.SECONDS);
    assertEquals(ErrorCode.ERROR_CODE_TRANSACTION_TIMEOUT, r.errorCode(), r::toString);
    assertEquals(0, count("p"), "the write before the time limit is rolled back");
    assertAbortedOn(db.partitionMap().partitionOf(7L));
  }

  @Test
  void shouldStopAMultiPartitionWriteAtItsLimitAndReportItAborted() throws Exception {
    final ClientResponse r = call("@AdHoc", 0, "INSERT INTO w SELECT a.x * 1000 + b.x FROM r a, r b, r c")
        .get(60, TimeUnit.SECONDS);
    assertEquals(ErrorCode.ERROR_CODE_TRANSACTION_TIMEOUT, r.errorCode(), r::toString);
    assertEquals(0, count("w"));
    assertAbortedOn(org.partita.server.txn.TxnId.MULTI_PARTITION);
  }

  @Test
  void shouldReportNothingAbortedForTransactionsThatEndOnTheirOwn() throws Exception {
    assertTrue(db.adHocSync("INSERT INTO p VALUES (1, 'x')").ok());
    assertEquals(ErrorCode.ERROR_CODE_CONSTRAINT_VIOLATION, db.adHocSync("INSERT INTO p VALUES (1, 'y')").errorCode());
    assertTrue(db.adHocSync("INSERT INTO w VALUES (1)").ok());
    assertEquals(List.of(), pipeline.aborted);
  }

  @Test
  void shouldUseTheCallsOwnLimitForAnAdHocStatement() throws Exception {
    final long begin = System.nanoTime();
    final ClientResponse r = call("@AdHoc", 1200, FOREVER).get(60, TimeUnit.SECONDS);
    assertEquals(ErrorCode.ERROR_CODE_TRANSACTION_TIMEOUT, r.errorCode(), r::toString);
    assertTrue(r.message().contains("past its time limit of 1.200 s"), r.message());
    assertTrue(System.nanoTime() - begin >= TimeUnit.MILLISECONDS.toNanos(1200));
  }

  @Test
  void shouldStopAMultiPartitionStatementAtItsLimitOnEveryPartition() throws Exception {
    for (long id = 0; id < 20; id++) {
      assertTrue(db.adHocSync("INSERT INTO p (id, note) VALUES (?, 'row')", id).ok());
    }
    final String everywhere = "SELECT COUNT(*) FROM p, r a, r b, r c WHERE p.id + a.x + b.x + c.x < 0";
    final ClientResponse r = call("@AdHoc", 700, everywhere).get(60, TimeUnit.SECONDS);
    assertEquals(ErrorCode.ERROR_CODE_TRANSACTION_TIMEOUT, r.errorCode(), r::toString);
    assertTrue(r.message().contains("past its time limit of 0.700 s"), r.message());
    assertEquals(20, count("p"), "the partitions are free again");
  }

  @Test
  void shouldRefuseACallLimitOverTheLongestAllowed() throws Exception {
    final ClientResponse over = call("@AdHoc", QueryLimits.MAX_TIMEOUT_MILLIS + 1, "SELECT 1 FROM r")
        .get(10, TimeUnit.SECONDS);
    assertEquals(ErrorCode.ERROR_CODE_BAD_PARAMETER, over.errorCode());
    assertTrue(over.message().contains("3600001 ms is over the longest allowed"), over.message());
    final ClientResponse unsigned = call("WriteThenJoinForever", -1, 5L).get(10, TimeUnit.SECONDS);
    assertEquals(ErrorCode.ERROR_CODE_BAD_PARAMETER, unsigned.errorCode());
    assertTrue(unsigned.message().contains("4294967295 ms"), unsigned.message());
    assertEquals(0, count("p"));
  }

  @Test
  void shouldCancelTheCallersRunningProcedure() throws Exception {
    final CompletableFuture<ClientResponse> running = call("WriteThenJoinForever", 60_000, 7L);
    List<Invocation> cancelled = List.of();
    while (cancelled.isEmpty() && !running.isDone()) {
      cancelled = db.cancelClient(CLIENT);
    }
    assertEquals(1, cancelled.size());
    assertEquals("WriteThenJoinForever", cancelled.get(0).procedure());
    final ClientResponse r = running.get(60, TimeUnit.SECONDS);
    assertEquals(ErrorCode.ERROR_CODE_CANCELLED, r.errorCode(), r::toString);
    assertEquals(0, count("p"), "the procedure's insert was undone");
    assertAbortedOn(db.partitionMap().partitionOf(7L));
  }

  @Test
  void shouldCancelWhateverAPartitionRunsAndNothingOfAnotherClient() throws Exception {
    final CompletableFuture<ClientResponse> running = call("@AdHoc", 60_000, FOREVER);
    assertTrue(db.cancelClient(CLIENT + 1).isEmpty() || !running.isDone());
    Invocation cancelled = null;
    while (cancelled == null && !running.isDone()) {
      cancelled = db.cancelPartition(0);
      if (cancelled == null) {
        cancelled = db.cancelPartition(1);
      }
    }
    assertNotNull(cancelled);
    assertEquals(ErrorCode.ERROR_CODE_CANCELLED, running.get(60, TimeUnit.SECONDS).errorCode());
    assertThrows(IllegalArgumentException.class, () -> db.cancelPartition(2));
  }
}
