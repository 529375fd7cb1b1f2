package org.partita.server.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatementBufferTest {
  @Test
  void shouldWaitForTheSemicolonAcrossLines() {
    final StatementBuffer b = new StatementBuffer();
    assertEquals(List.of(), b.add("SELECT *"));
    assertEquals(List.of("SELECT *\nFROM t"), b.add("FROM t;"));
    assertTrue(b.isEmpty());
  }

  @Test
  void shouldSplitSeveralStatementsOnOneLineAndKeepTheRest() {
    final StatementBuffer b = new StatementBuffer();
    assertEquals(List.of("SELECT 1", "SELECT 2"), b.add("SELECT 1; SELECT 2; SELECT"));
    assertEquals("SELECT", b.drain());
  }

  @Test
  void shouldIgnoreSemicolonsInStringsAndComments() {
    final StatementBuffer b = new StatementBuffer();
    assertEquals(List.of(), b.add("INSERT INTO t VALUES ('a;"));
    assertEquals(List.of("INSERT INTO t VALUES ('a;\nb')"), b.add("b'); -- done; really"));
    assertTrue(b.isEmpty());
  }
}
