package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.partita.client.ResultTable;
import org.partita.client.ValueType;

class ResultSetsTest {
  private static long only(ResultTable t) {
    assertEquals(1, t.rowCount());
    assertTrue(t.advanceRow());
    final long v = t.getLong(0);
    assertFalse(t.advanceRow());
    return v;
  }

  @Test
  void shouldGiveEveryCallOfASmallResultItsOwnCursor() {
    final ResultTable first = ResultSets.longTable(ResultSets.PROCEDURE_RESULT, 2);
    final ResultTable second = ResultSets.longTable(ResultSets.PROCEDURE_RESULT, 2);
    assertNotSame(first, second);
    assertEquals(2, only(first));
    assertEquals(2, only(second), "reading the first table moved no other cursor");
    assertEquals("RESULT", second.columnName(0));
    assertEquals(ValueType.BIGINT, second.columnType(0));
  }

  @Test
  void shouldEncodeSharedAndFreshResultsAlike() {
    for (long v : new long[] {-17, -16, 0, 1, 255, 256, Long.MIN_VALUE, Long.MAX_VALUE}) {
      final ResultTable shared = ResultSets.longTable(ResultSets.PROCEDURE_RESULT, v);
      assertEquals(v, only(shared), "value " + v);
      final ByteBuffer fresh = ResultSets.newLongTable(ResultSets.PROCEDURE_RESULT, v).bytes();
      assertEquals(fresh, shared.bytes(), "value " + v);
    }
    final ResultTable named = ResultSets.longTable("modified_tuples", 3);
    assertEquals("modified_tuples", named.columnName(0));
    assertEquals(3, only(named));
  }

  @Test
  void shouldShareOneResponsePerSmallResultForReceiversOfBytes() {
    final org.partita.client.ClientResponse two = ResultSets.sharedLongResponse(2);
    assertTrue(two.ok());
    org.junit.jupiter.api.Assertions.assertSame(two, ResultSets.sharedLongResponse(2));
    assertEquals(ResultSets.newLongTable(ResultSets.PROCEDURE_RESULT, 2).bytes(), two.results().get(0).bytes());
    assertEquals(-16, ResultSets.sharedLongResponse(-16).firstLong());
    assertEquals(255, ResultSets.sharedLongResponse(255).firstLong());
    org.junit.jupiter.api.Assertions.assertNull(ResultSets.sharedLongResponse(256));
    org.junit.jupiter.api.Assertions.assertNull(ResultSets.sharedLongResponse(-17));
  }
}
