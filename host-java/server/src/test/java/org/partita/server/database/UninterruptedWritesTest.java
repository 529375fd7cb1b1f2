package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.SourceFile;
import org.partita.server.txn.ImmediateCommitPipeline;

/**
 * With a command log a transaction that writes is never stopped by a time
 * limit (its outcome must be the same when the log is replayed), while a
 * read-only one still is (QueryLimits#withWritesUninterrupted).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class UninterruptedWritesTest {
  private static final String SCHEMA = String.join("\n",
      "CREATE TABLE r (x INTEGER NOT NULL);",
      "CREATE TABLE w (k BIGINT NOT NULL);");
  private static final String SLOW_WRITE = "INSERT INTO w SELECT a.x * 1000 + b.x FROM r a, r b";
  private static final String FOREVER = "SELECT COUNT(*) FROM r a, r b, r c, r d WHERE a.x + b.x + c.x + d.x < 0";

  private static Database open(QueryLimits limits) throws Exception {
    final Database db = Database.open(new CatalogCompiler(UninterruptedWritesTest.class.getClassLoader())
        .compile(List.of(new SourceFile("writes.sql", SCHEMA))), 2, 1024, 16, ImmediateCommitPipeline.INSTANCE,
        limits);
    final StringBuilder values = new StringBuilder();
    for (int x = 0; x < 300; x++) {
      values.append(x == 0 ? "" : ", ").append('(').append(x).append(')');
    }
    assertTrue(db.adHocSync("INSERT INTO r VALUES " + values).ok());
    return db;
  }

  private static long count(Database db) {
    final org.partita.client.ResultTable t = db.adHocSync("SELECT COUNT(*) FROM w").results().get(0);
    t.advanceRow();
    return t.getLong(0);
  }

  @Test
  void shouldRunAWriteToItsEndPastTheLimitAndStillStopAReadOnlyStatement() throws Exception {
    try (Database db = open(new QueryLimits(1, 1L << 30).withWritesUninterrupted())) {
      final ClientResponse write = db.adHocSync(SLOW_WRITE);
      assertTrue(write.ok(), write::toString);
      write.results().get(0).advanceRow();
      assertEquals(90_000, write.results().get(0).getLong(0), "rows inserted");
      final ClientResponse read = db.adHocSync(FOREVER);
      assertEquals(ErrorCode.ERROR_CODE_TRANSACTION_TIMEOUT, read.errorCode(), read::toString);
    }
  }

  @Test
  void shouldStopTheSameWriteWhenWritesMayBeInterrupted() throws Exception {
    try (Database db = open(new QueryLimits(1, 1L << 30))) {
      final ClientResponse write = db.adHocSync(SLOW_WRITE);
      assertEquals(ErrorCode.ERROR_CODE_TRANSACTION_TIMEOUT, write.errorCode(), write::toString);
      assertEquals(0, count(db));
    }
  }

  @Test
  void shouldTellWhichTransactionsMayBeInterrupted() {
    final QueryLimits limits = new QueryLimits(500, 1L << 30);
    assertTrue(limits.interruptible(false));
    assertEquals(500, limits.timeoutFor(0, false));
    assertEquals(70, limits.timeoutFor(70, false));
    final QueryLimits logged = limits.withWritesUninterrupted();
    assertFalse(logged.interruptible(false));
    assertTrue(logged.interruptible(true));
    assertEquals(0, logged.timeoutFor(70, false), "a write gets no limit");
    assertEquals(70, logged.timeoutFor(70, true));
    assertEquals(500, logged.timeoutFor(0, true));
  }
}
