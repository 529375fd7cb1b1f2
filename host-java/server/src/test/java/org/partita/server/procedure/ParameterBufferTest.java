package org.partita.server.procedure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ParameterBufferTest {
  @Test
  void shouldKeepEachStatementsParametersWithTheirKinds() {
    final ParameterBuffer b = new ParameterBuffer();
    b.beginStatement();
    b.add(7).add(2.5).add("x");
    b.beginStatement();
    b.beginStatement();
    b.addAll(new Object[] {null, 9L});
    assertEquals(3, b.statementCount());
    assertEquals(0, b.start(0));
    assertEquals(3, b.end(0));
    assertEquals(b.start(1), b.end(1));
    assertTrue(b.isLong(0));
    assertEquals(7, b.longAt(0));
    assertTrue(b.isDouble(1));
    assertEquals(2.5, b.doubleAt(1));
    assertFalse(b.isLong(2) || b.isDouble(2));
    assertArrayEquals(new Object[] {7L, 2.5, "x"}, b.values(0));
    assertArrayEquals(new Object[] {null, 9L}, b.values(2));
  }

  @Test
  void shouldGrowPastItsInitialCapacity() {
    final ParameterBuffer b = new ParameterBuffer();
    for (int s = 0; s < 40; s++) {
      b.beginStatement();
      for (int i = 0; i < 5; i++) {
        b.add((long) s * 10 + i);
      }
    }
    assertEquals(40, b.statementCount());
    assertEquals(394, b.longAt(b.start(39) + 4));
    assertEquals(5, b.end(39) - b.start(39));
  }

  @Test
  void shouldForgetEverythingWhenCleared() {
    final ParameterBuffer b = new ParameterBuffer();
    b.beginStatement();
    b.add("kept until clear");
    b.clear();
    assertEquals(0, b.statementCount());
    b.beginStatement();
    assertEquals(0, b.values(0).length);
  }

  @Test
  void shouldRefuseAParameterWithNoStatementQueued() {
    final ParameterBuffer b = new ParameterBuffer();
    final IllegalStateException e = assertThrows(IllegalStateException.class, () -> b.add(1));
    assertTrue(e.getMessage().contains("queue(statement)"), e.getMessage());
  }
}
