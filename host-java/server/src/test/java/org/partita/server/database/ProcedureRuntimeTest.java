package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.SourceFile;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.ResponseBytesConsumer;

class ProcedureRuntimeTest {
  private static final String SCHEMA = String.join("\n",
      "CREATE TABLE accounts (owner BIGINT NOT NULL, id INTEGER NOT NULL, balance BIGINT NOT NULL,",
      "  PRIMARY KEY (owner, id));",
      "PARTITION TABLE accounts ON COLUMN owner;",
      "CREATE VIEW owner_totals (owner, accounts, total) AS",
      "  SELECT owner, COUNT(*), SUM(balance) FROM accounts GROUP BY owner;",
      "CREATE PROCEDURE PARTITION ON TABLE accounts COLUMN owner FROM CLASS org.partita.server.database.procs.Transfer;",
      "CREATE PROCEDURE PARTITION ON TABLE accounts COLUMN owner",
      "  FROM CLASS org.partita.server.database.procs.WrongPartition;",
      "CREATE PROCEDURE FROM CLASS org.partita.server.database.procs.TotalBalance;",
      "CREATE PROCEDURE PARTITION ON TABLE accounts COLUMN owner FROM CLASS org.partita.server.database.procs.TypedTransfer;",
      "CREATE PROCEDURE FROM CLASS org.partita.server.database.procs.TypedTotalBalance;",
      "CREATE PROCEDURE PARTITION ON TABLE accounts COLUMN owner FROM CLASS org.partita.server.database.procs.ReusingReads;",
      "CREATE PROCEDURE OpenAccount PARTITION ON TABLE accounts COLUMN owner AS",
      "  INSERT INTO accounts VALUES (?, ?, ?);",
      "CREATE PROCEDURE OwnerTotal PARTITION ON TABLE accounts COLUMN owner AS",
      "  SELECT total FROM owner_totals WHERE owner = ?;");

  private Database db;

  @AfterEach
  void close() throws Exception {
    db.close();
  }

  private void open(int partitions) throws Exception {
    db = Database.open(new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("accounts.sql", SCHEMA))), partitions);
    for (long owner = 1; owner <= 10; owner++) {
      assertTrue(db.callSync("OpenAccount", owner, 1, 100L).ok());
      assertTrue(db.callSync("OpenAccount", owner, 2, 0).ok());
    }
  }

  private long ownerTotal(long owner) {
    final ResultTable t = db.callSync("OwnerTotal", owner).results().get(0);
    t.advanceRow();
    return t.getLong(0);
  }

  /** An owner whose rows live on another partition than {@code owner}'s. */
  private static long ownerElsewhere(long owner, int partitions) {
    long other = owner + 1;
    while (org.partita.client.PartitionHash.partition(other, partitions)
        == org.partita.client.PartitionHash.partition(owner, partitions)) {
      other++;
    }
    return other;
  }

  @org.junit.jupiter.api.Test
  void shouldShareASmallLongResultOnlyWithReceiversThatReadBytes() throws Exception {
    open(2);
    final List<CompletableFuture<ClientResponse>> answers = new java.util.ArrayList<>();
    for (int i = 0; i < 2; i++) {
      final CompletableFuture<ClientResponse> bytesOnly = new CompletableFuture<>();
      final ResponseBytesConsumer receiver = bytesOnly::complete;
      assertTrue(db.offerCall(Invocation.of("Transfer", new Object[] {4L, 1, 2, 0L}, 0, i + 1), receiver));
      answers.add(bytesOnly);
      answers.add(db.call("Transfer", 4L, 1, 2, 0L));
    }
    final ClientResponse shared = answers.get(0).get(10, TimeUnit.SECONDS);
    assertTrue(shared.ok(), shared::toString);
    assertSame(shared, answers.get(2).get(10, TimeUnit.SECONDS), "one response for every call returning 100");
    final ClientResponse own = answers.get(1).get(10, TimeUnit.SECONDS);
    final ClientResponse other = answers.get(3).get(10, TimeUnit.SECONDS);
    assertNotSame(own.results().get(0), other.results().get(0), "in-process callers get their own cursors");
    assertEquals(100, own.firstLong());
    assertEquals(own.results().get(0).bytes(), shared.results().get(0).bytes(), "the same bytes on the wire");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void shouldCommitASinglePartitionProcedure(int partitions) throws Exception {
    open(partitions);
    final ClientResponse r = db.callSync("Transfer", 4L, 1, 2, 30L);
    assertTrue(r.ok(), r::toString);
    final ResultTable result = r.results().get(0);
    result.advanceRow();
    assertEquals(70, result.getLong(0));
    assertEquals(100, ownerTotal(4));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void shouldRollBackEverythingOnAbortViewsIncluded(int partitions) throws Exception {
    open(partitions);
    final ClientResponse r = db.callSync("Transfer", 4L, 1, 2, 130L);
    assertEquals(ClientResponse.Status.USER_ABORT, r.status());
    assertEquals("overdraft on account 1", r.message());
    assertTrue(db.callSync("Transfer", 4L, 1, 2, 100L).ok());
    final ResultTable balances = db.adHocSync("SELECT id, balance FROM accounts WHERE owner = 4 ORDER BY id")
        .results().get(0);
    balances.advanceRow();
    assertEquals(0, balances.getLong(1));
    balances.advanceRow();
    assertEquals(100, balances.getLong(1));
    assertEquals(100, ownerTotal(4));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldRunMultiPartitionProceduresAtomically(int partitions) throws Exception {
    open(partitions);
    final ClientResponse ok = db.callSync("TotalBalance", 1L, 10_000L);
    assertTrue(ok.ok(), ok::toString);
    final ResultTable total = ok.results().get(1);
    total.resetRowPosition();
    total.advanceRow();
    assertEquals(1000 + 20, total.getLong(0));
    final ClientResponse aborted = db.callSync("TotalBalance", 5L, 1000L);
    assertEquals(ClientResponse.Status.USER_ABORT, aborted.status());
    final ResultTable after = db.adHocSync("SELECT SUM(balance) FROM accounts").results().get(0);
    after.advanceRow();
    assertEquals(1020, after.getLong(0));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void shouldRejectLossyAndMissingParameters(int partitions) throws Exception {
    open(partitions);
    final ClientResponse lossy = db.callSync("Transfer", 4L, 1L << 40, 2, 1L);
    assertEquals("BAD_PARAMETER", lossy.errorName());
    assertTrue(lossy.message().contains("procedure Transfer parameter 2"), lossy.message());
    assertEquals("BAD_PARAMETER", db.callSync("Transfer", 4L, 1).errorName());
    assertEquals("BAD_PARAMETER", db.callSync("Transfer", "four", 1, 2, 3L).errorName());
    assertEquals("PROCEDURE_NOT_FOUND", db.callSync("NoSuchProcedure").errorName());
    final ClientResponse duplicate = db.callSync("OpenAccount", 4L, 1, 5L);
    assertEquals("CONSTRAINT_VIOLATION", duplicate.errorName());
  }

  @ParameterizedTest
  @ValueSource(ints = {3})
  void shouldRefuseAStatementOnAnotherPartition(int partitions) throws Exception {
    open(partitions);
    final ClientResponse r = db.callSync("WrongPartition", 1L, ownerElsewhere(1L, partitions));
    assertEquals("WRONG_PARTITION", r.errorName(), r::toString);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void shouldRunStatementsQueuedWithTypedParameters(int partitions) throws Exception {
    open(partitions);
    final ClientResponse r = db.callSync("TypedTransfer", 4L, 1, 2, 30L, 4L, 0);
    assertTrue(r.ok(), r::toString);
    final ResultTable result = r.results().get(0);
    result.advanceRow();
    assertEquals(70, result.getLong(0));
    assertEquals(100, ownerTotal(4));
  }

  @ParameterizedTest
  @ValueSource(ints = {3})
  void shouldRefuseATypedStatementOnAnotherPartitionAndRollBack(int partitions) throws Exception {
    open(partitions);
    final ClientResponse r = db.callSync("TypedTransfer", 4L, 1, 2, 30L, ownerElsewhere(4L, partitions), 0);
    assertEquals("WRONG_PARTITION", r.errorName(), r::toString);
    assertTrue(r.message().contains("statement TypedTransfer.balance"), r.message());
    assertEquals(100, ownerTotal(4));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void shouldRejectATypedStatementMissingAParameter(int partitions) throws Exception {
    open(partitions);
    final ClientResponse r = db.callSync("TypedTransfer", 4L, 1, 2, 30L, 4L, 1);
    assertEquals("BAD_PARAMETER", r.errorName(), r::toString);
    assertTrue(r.message().contains("statement TypedTransfer.balance takes 2 parameter(s), 1 given"), r.message());
    assertEquals(100, ownerTotal(4));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldConvertTypedParametersInMultiPartitionProcedures(int partitions) throws Exception {
    open(partitions);
    final ClientResponse ok = db.callSync("TypedTotalBalance", 1.0);
    assertTrue(ok.ok(), ok::toString);
    final ResultTable total = ok.results().get(1);
    total.advanceRow();
    assertEquals(1000 + 20, total.getLong(0));
    final ClientResponse fraction = db.callSync("TypedTotalBalance", 0.5);
    assertEquals("BAD_PARAMETER", fraction.errorName(), fraction::toString);
    assertTrue(fraction.message().contains("statement TypedTotalBalance.bonus parameter 1"), fraction.message());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void shouldRepointReusedTablesAndAnswerWithACopy(int partitions) throws Exception {
    open(partitions);
    final ClientResponse first = db.callSync("ReusingReads", 4L);
    assertTrue(first.ok(), first::toString);
    assertTrue(db.callSync("Transfer", 4L, 1, 2, 30L).ok());
    final ClientResponse second = db.callSync("ReusingReads", 4L);
    assertTrue(second.ok(), second::toString);
    // The first answer's table was copied out of the reused one: later calls did not move it.
    final ResultTable before = first.results().get(0);
    before.advanceRow();
    assertEquals(0, before.getLong(0));
    final ResultTable after = second.results().get(0);
    after.advanceRow();
    assertEquals(30, after.getLong(0));
  }
}
