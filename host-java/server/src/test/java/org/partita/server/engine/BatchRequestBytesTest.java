package org.partita.server.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.partita.client.ResultTable;
import org.partita.client.ResultTables;
import org.partita.proto.ErrorCode;

/**
 * Batch requests as bytes that travel between hosts (docs/cluster.md,
 * "Multi-partition work across hosts"): a detached writer's bytes run on an
 * engine that loads them; the bytes an engine ran come back without their
 * time limit (what a replica runs); bytes that are not a request fail with
 * BAD_REQUEST and leave the engine serving.
 */
class BatchRequestBytesTest {
  private static final long NOW = 1_700_000_000_000_000L;
  private PartitionEngine engine;

  @BeforeEach
  void open() {
    engine = PartitionEngine.open(TestCatalogs.kv(false), 0, 1);
  }

  @AfterEach
  void close() {
    engine.close();
  }

  private static BatchRequestWriter insert(BatchRequestWriter w, long id) {
    return w.addCall(TestCatalogs.INSERT).addBigInt(id).addVarchar("n" + id).addDecimal(null).addTimestamp(NOW);
  }

  @Test
  void shouldRunTheBytesADetachedWriterMade() {
    final byte[] request = insert(BatchRequestWriter.detached().begin(true, NOW), 7).toByteArray();
    engine.request().load(request);
    engine.execute();
    engine.request().begin(true, NOW).addCall(TestCatalogs.GET).addBigInt(7);
    final ResultTable[] row = ResultTables.parse(engine.execute());
    assertEquals(1, row[0].rowCount());
    // Loaded bytes run again come back as they were (no time limit to drop): a replica's copy of them.
    final byte[] again = insert(BatchRequestWriter.detached().begin(false, NOW), 8).toByteArray();
    engine.request().load(again);
    engine.execute();
    assertArrayEquals(again, engine.request().lastRequestWithoutLimitOrHint());
    engine.rollback();
  }

  @Test
  void shouldGiveBackTheRequestItRanWithoutItsTimeLimit() {
    final byte[] limited = insert(BatchRequestWriter.detached().begin(true, NOW, 5_000), 1).toByteArray();
    final byte[] unlimited = insert(BatchRequestWriter.detached().begin(true, NOW), 1).toByteArray();
    assertEquals(unlimited.length + 4, limited.length);
    insert(engine.request().begin(true, NOW, 5_000), 1);
    engine.execute();
    assertArrayEquals(unlimited, engine.request().lastRequestWithoutLimitOrHint());
  }

  @Test
  void shouldRunARequestCarryingAPrefetchKeyAndGiveItBackWithoutKeyOrLimit() {
    insert(engine.request().begin(true, NOW), 4);
    engine.execute();
    // The key (row 4's, then a key with no row) changes nothing the batch returns.
    for (final long key : new long[] {4, 99}) {
      engine.request().begin(false, NOW).prefetchKey(key).addCall(TestCatalogs.GET).addBigInt(4);
      assertEquals(1, ResultTables.parse(engine.execute())[0].rowCount());
      engine.rollback();
    }
    final byte[] plain = insert(BatchRequestWriter.detached().begin(true, NOW), 5).toByteArray();
    insert(engine.request().begin(true, NOW, 5_000).prefetchKey(6), 5);
    engine.execute();
    assertArrayEquals(plain, engine.request().lastRequestWithoutLimitOrHint());
  }

  @Test
  void shouldRefuseAPrefetchKeyAfterTheFirstCallOrTwice() {
    final BatchRequestWriter afterCall = engine.request().begin(true, NOW);
    afterCall.addCall(TestCatalogs.GET).addBigInt(1);
    assertThrows(IllegalStateException.class, () -> afterCall.prefetchKey(1));
    final BatchRequestWriter twice = engine.request().begin(true, NOW).prefetchKey(1);
    assertThrows(IllegalStateException.class, () -> twice.prefetchKey(2));
  }

  @Test
  void shouldRefuseBytesThatAreNotARequestAndKeepServing() {
    final byte[] good = insert(BatchRequestWriter.detached().begin(true, NOW), 3).toByteArray();
    final byte[] truncated = Arrays.copyOf(good, good.length - 3);
    engine.request().load(truncated);
    final EngineException e = assertThrows(EngineException.class, engine::execute);
    assertEquals(ErrorCode.ERROR_CODE_BAD_REQUEST, e.code(), e.getMessage());
    engine.request().load(good);
    engine.execute();
    engine.request().begin(true, NOW).addCall(TestCatalogs.GET).addBigInt(3);
    assertEquals(1, ResultTables.parse(engine.execute())[0].rowCount());
  }
}
