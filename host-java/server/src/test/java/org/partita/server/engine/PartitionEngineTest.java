package org.partita.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.partita.client.ResultTable;
import org.partita.client.ResultTables;
import org.partita.proto.ErrorCode;
import org.partita.proto.TableStats;
import org.partita.proto.TableStatsList;

/** The JNI bridge end to end: PartitionEngine, NativeEngine, libpartita_jni.so, the engine. */
class PartitionEngineTest {
  private static final long NOW = 1_700_000_000_000_000L;

  private PartitionEngine engine;

  @BeforeEach
  void open() {
    engine = PartitionEngine.open(TestCatalogs.kv(false), 3, 4);
  }

  @AfterEach
  void close() {
    engine.close();
  }

  private BatchRequestWriter insert(BatchRequestWriter w, long id, String name, String amount) {
    return w.addCall(TestCatalogs.INSERT).addBigInt(id).addVarchar(name)
        .addDecimal(amount == null ? null : new BigDecimal(amount)).addTimestamp(NOW + id);
  }

  private ResultTable[] run(BatchRequestWriter w) {
    return ResultTables.parse(engine.execute());
  }

  private ResultTable get(long id) {
    return run(engine.request().begin(true, NOW).addCall(TestCatalogs.GET).addBigInt(id))[0];
  }

  @Test
  void shouldInsertAndSelectByKey() {
    final ResultTable[] results = run(insert(engine.request().begin(true, NOW), 1, "anné ☃ 𝄞", "12.5")
        .addCall(TestCatalogs.GET).addInteger(1));
    assertEquals(2, results.length);
    assertTrue(results[0].advanceRow());
    assertEquals(1, results[0].getLong("modified_tuples"));
    final ResultTable row = results[1];
    assertEquals(1, row.rowCount());
    row.advanceRow();
    assertEquals(1, row.getLong("ID"));
    assertEquals("anné ☃ 𝄞", row.getString("NAME"));
    assertEquals(new BigDecimal("12.500000000000"), row.getDecimal("AMOUNT"));
    assertEquals(NOW + 1, row.getTimestampMicros("AT"));
    assertFalse(engine.inTransaction());
  }

  @Test
  void shouldStoreNulls() {
    run(insert(engine.request().begin(true, NOW), 2, null, null));
    final ResultTable row = get(2);
    row.advanceRow();
    assertNull(row.getString(1));
    assertTrue(row.wasNull());
    assertNull(row.getDecimal(2));
  }

  @Test
  void shouldReportConstraintViolationAndRollBackTheTransaction() {
    run(insert(engine.request().begin(true, NOW), 1, "a", "1"));
    insert(insert(engine.request().begin(true, NOW), 2, "b", "2"), 1, "dup", "3");
    final EngineException e = assertThrows(EngineException.class, engine::execute);
    assertEquals(ErrorCode.ERROR_CODE_CONSTRAINT_VIOLATION, e.errorCode());
    assertTrue(e.getMessage().contains("PK_KV"), e.getMessage());
    assertEquals(0, get(2).rowCount());
    assertEquals(1, get(1).rowCount());
    assertFalse(engine.inTransaction());
  }

  @Test
  void shouldKeepANonFinalBatchOpenUntilCommitOrRollback() {
    run(insert(engine.request().begin(false, NOW), 5, "x", "0"));
    assertTrue(engine.inTransaction());
    engine.rollback();
    assertEquals(0, get(5).rowCount());
    run(insert(engine.request().begin(false, NOW), 5, "x", "0"));
    engine.commit();
    assertEquals(1, get(5).rowCount());
  }

  @Test
  void shouldFetchResultsLargerThanTheResponseBuffer() {
    engine.close();
    engine = PartitionEngine.open(TestCatalogs.kv(false), 0, 1, 32, 64);
    final BatchRequestWriter w = engine.request().begin(true, NOW);
    final String name = "n".repeat(90);
    for (int i = 0; i < 500; i++) {
      insert(w, i, name + i, i + ".25");
    }
    final ResultTable[] inserted = run(w);
    assertEquals(500, inserted.length);
    final ResultTable all = run(engine.request().begin(true, NOW).addCall(TestCatalogs.ALL))[0];
    assertEquals(500, all.rowCount());
    long sum = 0;
    while (all.advanceRow()) {
      sum += all.getLong(0);
      assertTrue(all.getString(1).startsWith(name));
    }
    assertEquals(499 * 500 / 2, sum);
    // Smaller results still arrive through the grown buffer.
    final ResultTable one = get(7);
    one.advanceRow();
    assertEquals(new BigDecimal("7.250000000000"), one.getDecimal(2));
  }

  @Test
  void shouldRunAnAdHocStatement() {
    run(insert(engine.request().begin(true, NOW), 9, "nine", "9"));
    final byte[] getByKey = org.partita.proto.Statement.newBuilder()
        .setPlan(TestCatalogs.lookup("PK_KV", 0)).addParameterTypes(org.partita.proto.ValueType.VALUE_TYPE_BIGINT)
        .setReadOnly(true).build().toByteArray();
    final ResultTable t = run(engine.request().begin(true, NOW).addAdHocCall(getByKey).addBigInt(9))[0];
    t.advanceRow();
    assertEquals("nine", t.getString("NAME"));
  }

  @Test
  void shouldRejectAMalformedAdHocStatement() {
    engine.request().begin(true, NOW).addAdHocCall(new byte[] {(byte) 0xff, (byte) 0xff});
    final EngineException e = assertThrows(EngineException.class, engine::execute);
    assertEquals(ErrorCode.ERROR_CODE_BAD_REQUEST, e.errorCode());
    assertTrue(e.getMessage().contains("at byte 19"), e.getMessage());
  }

  @Test
  void shouldReceiveDependencyTablesPassedThroughUnchanged() {
    run(insert(insert(engine.request().begin(true, NOW), 1, "a", "1"), 2, "b", "2"));
    engine.request().begin(true, NOW).addCall(TestCatalogs.ALL);
    // One partition's result set; its only table starts after table_count.
    final ByteBuffer table = copy(engine.execute()).position(4).slice();
    final ResultTable received = run(engine.request().begin(true, NOW).addAdHocCall(TestCatalogs.receive(7))
        .addDependency(7, table).addDependency(8, table).addDependency(7, table))[0];
    assertEquals(4, received.rowCount());
    long sum = 0;
    while (received.advanceRow()) {
      sum += received.getLong("ID");
    }
    assertEquals(6, sum);
  }

  @Test
  void shouldRejectADependencyOfTheWrongShape() {
    final ByteBuffer oneColumn = copy(run1Column());
    engine.request().begin(true, NOW).addAdHocCall(TestCatalogs.receive(7)).addDependency(7, oneColumn.position(4).slice());
    final EngineException e = assertThrows(EngineException.class, engine::execute);
    assertEquals(ErrorCode.ERROR_CODE_BAD_REQUEST, e.errorCode());
    assertTrue(e.getMessage().contains("the plan expects 4"), e.getMessage());
  }

  // A result set of one table with one BIGINT column (an insert's count).
  private ByteBuffer run1Column() {
    insert(engine.request().begin(false, NOW), 1, "a", "1");
    final ByteBuffer out = engine.execute();
    engine.rollback();
    return out;
  }

  @Test
  void shouldUpdateTheCatalogKeepingData() {
    run(insert(insert(engine.request().begin(true, NOW), 1, "a", "1"), 2, "b", "2"));
    engine.updateCatalog(TestCatalogs.kv(true));
    final ResultTable byName = run(engine.request().begin(true, NOW).addCall(TestCatalogs.BY_NAME).addVarchar("b"))[0];
    assertEquals(1, byName.rowCount());
    byName.advanceRow();
    assertEquals(2, byName.getLong("ID"));
    final EngineException e = assertThrows(EngineException.class, () -> engine.updateCatalog(new byte[] {1, 2, 3}));
    assertEquals(ErrorCode.ERROR_CODE_BAD_CATALOG, e.errorCode());
    assertEquals(2, get(1).rowCount() + get(2).rowCount());
  }

  @Test
  void shouldReportTableStats() {
    run(insert(engine.request().begin(true, NOW), 1, "a", "1"));
    final TableStatsList stats = engine.tableStats();
    assertEquals(3, stats.getPartitionId());
    final TableStats kv = stats.getTables(0);
    assertEquals("KV", kv.getName());
    assertEquals(1, kv.getRowCount());
    assertTrue(kv.getBytesAllocated() >= kv.getBytesUsed() && kv.getBytesUsed() > 0);
  }

  @Test
  void shouldRejectClosedAndBogusHandles() {
    final long handle = engine.handle();
    engine.close();
    engine.close();  // idempotent
    for (long bad : new long[] {handle, 0, 12345, -1, handle + (1L << 32)}) {
      final EngineException e = assertThrows(EngineException.class, () -> NativeEngine.execute(bad, 0));
      assertEquals(ErrorCode.ERROR_CODE_BAD_REQUEST, e.errorCode());
      assertTrue(e.getMessage().contains("engine handle"), e.getMessage());
    }
    assertThrows(EngineException.class, () -> NativeEngine.close(handle));
    engine = PartitionEngine.open(TestCatalogs.kv(false), 0, 1);
  }

  @Test
  void shouldRejectCallsFromAnotherThread() throws InterruptedException {
    final CompletableFuture<Void> other = CompletableFuture.runAsync(() -> engine.request().begin(true, NOW));
    try {
      other.get();
    } catch (ExecutionException unexpected) {
      throw new AssertionError(unexpected);
    }
    final long handle = engine.handle();
    final CompletableFuture<EngineException> thrown = CompletableFuture.supplyAsync(() -> {
      try {
        NativeEngine.commit(handle);
        return null;
      } catch (EngineException e) {
        return e;
      }
    });
    final EngineException e = thrown.join();
    assertTrue(e != null && e.getMessage().contains("another thread"), String.valueOf(e));
    assertEquals(0, get(1).rowCount());  // still usable from its own thread
  }

  @Test
  void shouldRejectABadCatalogAtOpen() {
    final EngineException e = assertThrows(EngineException.class, () -> PartitionEngine.open(new byte[] {9}, 0, 1));
    assertEquals(ErrorCode.ERROR_CODE_BAD_CATALOG, e.errorCode());
  }

  @Test
  void shouldRejectDecimalsTheEngineCannotHold() {
    final BatchRequestWriter w = engine.request().begin(true, NOW).addCall(TestCatalogs.INSERT).addBigInt(1).addNull();
    assertThrows(IllegalArgumentException.class, () -> w.addDecimal(new BigDecimal("1e26")));
    assertThrows(IllegalArgumentException.class, () -> w.addDecimal(new BigDecimal("0.0000000000001")));
    w.addDecimal(new BigDecimal("-99999999999999999999999999.999999999999")).addNull();
    run(w);
    final ResultTable t = get(1);
    t.advanceRow();
    assertEquals(new BigDecimal("-99999999999999999999999999.999999999999"), t.getDecimal(2));
  }

  @Test
  void shouldReportBadParametersFromTheEngine() {
    engine.request().begin(true, NOW).addCall(TestCatalogs.GET).addVarchar("not a number");
    final EngineException e = assertThrows(EngineException.class, engine::execute);
    assertEquals(ErrorCode.ERROR_CODE_BAD_PARAMETER, e.errorCode());
    assertThrows(IllegalStateException.class, () -> engine.request().begin(true, NOW).addBigInt(1));
  }

  @Test
  void shouldReturnTheSameWriteHashForTheSameWritesOnAnotherEngine() {
    run(insert(engine.request().begin(true, NOW), 1, "a", "1.5"));
    final long first = engine.writeHash();
    assertNotEquals(0L, first);
    try (PartitionEngine replica = PartitionEngine.open(TestCatalogs.kv(false), 3, 4)) {
      insert(replica.request().begin(true, NOW), 1, "a", "1.5");
      assertEquals(1, ResultTables.parse(replica.execute()).length);
      assertEquals(first, replica.writeHash());
      insert(replica.request().begin(true, NOW), 2, "a", "1.5");
      replica.execute();
      assertNotEquals(first, replica.writeHash());
    }
  }

  @Test
  void shouldReturnAWriteHashOfZeroForAReadOnlyTransaction() {
    run(insert(engine.request().begin(true, NOW), 1, "a", "1"));
    assertEquals(1, get(1).rowCount());
    assertEquals(0L, engine.writeHash());
  }

  @Test
  void shouldAccumulateTheWriteHashOverTheBatchesOfATransaction() {
    run(insert(engine.request().begin(false, NOW), 1, "a", "1"));
    final long afterInsert = engine.writeHash();
    run(engine.request().begin(false, NOW).addCall(TestCatalogs.GET).addBigInt(1));
    assertEquals(afterInsert, engine.writeHash());
    run(insert(engine.request().begin(true, NOW), 2, "b", "2"));
    assertNotEquals(afterInsert, engine.writeHash());
    assertNotEquals(0L, engine.writeHash());
  }

  private static ByteBuffer copy(ByteBuffer b) {
    final ByteBuffer out = ByteBuffer.allocate(b.remaining());
    out.put(b.duplicate()).flip();
    return out;
  }
}
