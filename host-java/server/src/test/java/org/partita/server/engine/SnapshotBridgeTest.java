package org.partita.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.client.ResultTable;
import org.partita.client.ResultTables;
import org.partita.proto.ErrorCode;

/** The snapshot stream through the JNI bridge: chunks out of one engine, into another, with writes in between. */
class SnapshotBridgeTest {
  private static final long NOW = 1_700_000_000_000_000L;

  private static void insert(PartitionEngine engine, long id, String name) {
    engine.request().begin(true, NOW).addCall(TestCatalogs.INSERT).addBigInt(id).addVarchar(name)
        .addDecimal(new BigDecimal("1.5")).addTimestamp(NOW + id);
    engine.execute();
  }

  private static List<String> all(PartitionEngine engine) {
    engine.request().begin(true, NOW).addCall(TestCatalogs.ALL);
    final ResultTable table = ResultTables.parse(engine.execute())[0];
    final List<String> rows = new ArrayList<>();
    while (table.advanceRow()) {
      rows.add(table.getLong(0) + ":" + table.getString(1));
    }
    return rows;
  }

  @Test
  void shouldStreamTheCutWhileWritesGoOnAndLoadItBack() {
    try (PartitionEngine source = PartitionEngine.open(TestCatalogs.kv(true), 0, 1);
        PartitionEngine copy = PartitionEngine.open(TestCatalogs.kv(true), 0, 1)) {
      for (long id = 0; id < 2_000; id++) {
        insert(source, id, "name-" + id);
      }
      final List<String> atCut = all(source);
      source.beginSnapshot();
      final List<byte[]> chunks = new ArrayList<>();
      long id = 10_000;
      for (byte[] chunk = source.nextSnapshotChunk(4096); chunk != null; chunk = source.nextSnapshotChunk(4096)) {
        chunks.add(chunk);
        insert(source, id++, "later");
      }
      assertTrue(chunks.size() > 3, "small chunks: " + chunks.size());
      assertTrue(source.snapshotKeptBytes() == 0);
      chunks.forEach(copy::loadSnapshotChunk);
      assertEquals(atCut, all(copy));
    }
  }

  @Test
  void shouldRefuseAChunkWithoutASnapshotAndABadChunk() {
    try (PartitionEngine engine = PartitionEngine.open(TestCatalogs.kv(false), 0, 1)) {
      final EngineException none = assertThrows(EngineException.class, () -> engine.nextSnapshotChunk(1024));
      assertEquals(ErrorCode.ERROR_CODE_BAD_REQUEST, none.code());
      final EngineException bad = assertThrows(EngineException.class,
          () -> engine.loadSnapshotChunk(new byte[] {9, 0}));
      assertTrue(bad.getMessage().contains("format 9 is not 1"), bad.getMessage());
      engine.beginSnapshot();
      engine.abortSnapshot();
      assertThrows(EngineException.class, () -> engine.nextSnapshotChunk(1024));
      engine.beginSnapshot();
      assertTrue(engine.nextSnapshotChunk(1024) != null);
      assertNull(engine.nextSnapshotChunk(1024));
    }
  }
}
