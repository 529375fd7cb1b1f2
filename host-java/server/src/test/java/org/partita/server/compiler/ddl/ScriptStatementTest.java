package org.partita.server.compiler.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ScriptStatementTest {

  private static final String SCRIPT = "\n-- c\n    SELECT a,\n  b FROM t;";

  private static ScriptStatement statement() throws DdlException {
    return ScriptSplitter.split("schema.sql", SCRIPT).get(0);
  }

  private static SourcePosition at(int line, int column) {
    return new SourcePosition("schema.sql", line, column);
  }

  @Test
  void shouldMapOffsetsToFilePositions() throws DdlException {
    final ScriptStatement s = statement();
    assertEquals("SELECT a,\n  b FROM t", s.text());
    assertEquals(at(3, 5), s.start());
    assertEquals(at(3, 5), s.positionOf(0));
    assertEquals(at(4, 3), s.positionOf(s.text().indexOf('b')));
    assertEquals(at(4, 11), s.positionOf(s.text().length()));
    assertEquals(SCRIPT.indexOf("SELECT"), s.sourceOffset());
  }

  @Test
  void shouldMapStatementLinesAndColumnsToFilePositions() throws DdlException {
    final ScriptStatement s = statement();
    assertEquals(at(3, 5), s.positionOf(1, 1));
    assertEquals(at(3, 12), s.positionOf(1, 8));
    assertEquals(at(4, 3), s.positionOf(2, 3));
  }

  @Test
  void shouldRejectPositionsOutsideStatement() throws DdlException {
    final ScriptStatement s = statement();
    assertThrows(IndexOutOfBoundsException.class, () -> s.positionOf(-1));
    assertThrows(IndexOutOfBoundsException.class, () -> s.positionOf(s.text().length() + 1));
    assertThrows(IllegalArgumentException.class, () -> s.positionOf(3, 1));
    assertThrows(IllegalArgumentException.class, () -> s.positionOf(0, 1));
    assertThrows(IllegalArgumentException.class, () -> s.positionOf(1, 0));
  }

  @Test
  void shouldMapSuffixPositionsToFile() throws DdlException {
    final ScriptStatement suffix = statement().suffix(7);
    assertEquals("a,\n  b FROM t", suffix.text());
    assertEquals(at(3, 12), suffix.start());
    assertEquals(at(3, 13), suffix.positionOf(1, 2));
    assertEquals(at(4, 3), suffix.positionOf(2, 3));
  }

  @Test
  void shouldBuildErrorAtStatementLineAndColumnWithExcerpt() throws DdlException {
    final DdlException e = statement().errorAt(2, 5, "unknown table 'FROM'?", "FROM");
    assertEquals("schema.sql:4:5: unknown table 'FROM'?\n  b FROM t;\n    ^~~~", e.getMessage());
  }

  @Test
  void shouldMapPositionsAfterCrLf() throws DdlException {
    final ScriptStatement s =
        ScriptSplitter.split("f", "SELECT 1;\r\n  SELECT\r\n  x").get(1);
    assertEquals(new SourcePosition("f", 2, 3), s.start());
    assertEquals(new SourcePosition("f", 3, 3), s.positionOf(2, 3));
    assertEquals(new SourcePosition("f", 3, 3), s.positionOf(s.text().indexOf('x')));
  }
}
