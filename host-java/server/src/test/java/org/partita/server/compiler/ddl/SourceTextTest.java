package org.partita.server.compiler.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SourceTextTest {

  private static SourcePosition at(int line, int column) {
    return new SourcePosition("f.sql", line, column);
  }

  @Test
  void shouldMapOffsetsAcrossLineFeedCrLfAndLoneCr() {
    final SourceText source = new SourceText("f.sql", "ab\ncd\r\nef\rgh");
    assertEquals(4, source.lineCount());
    assertEquals(at(1, 1), source.positionAt(0));
    assertEquals(at(1, 3), source.positionAt(2));
    assertEquals(at(2, 1), source.positionAt(3));
    assertEquals(at(2, 3), source.positionAt(5));
    assertEquals(at(2, 4), source.positionAt(6));
    assertEquals(at(3, 1), source.positionAt(7));
    assertEquals(at(4, 1), source.positionAt(10));
    assertEquals(at(4, 3), source.positionAt(12));
  }

  @Test
  void shouldReturnLinesWithoutTerminators() {
    final SourceText source = new SourceText("f.sql", "ab\ncd\r\nef\rgh\n");
    assertEquals("ab", source.line(1));
    assertEquals("cd", source.line(2));
    assertEquals("ef", source.line(3));
    assertEquals("gh", source.line(4));
    assertEquals("", source.line(5));
  }

  @Test
  void shouldHaveOneLineWhenEmpty() {
    final SourceText source = new SourceText("f.sql", "");
    assertEquals(1, source.lineCount());
    assertEquals(at(1, 1), source.positionAt(0));
  }

  @Test
  void shouldRejectOffsetsOutsideText() {
    final SourceText source = new SourceText("f.sql", "ab");
    assertThrows(IndexOutOfBoundsException.class, () -> source.positionAt(-1));
    assertThrows(IndexOutOfBoundsException.class, () -> source.positionAt(3));
    assertThrows(IndexOutOfBoundsException.class, () -> source.line(2));
  }

  @Test
  void shouldBuildErrorWithExcerpt() {
    final SourceText source = new SourceText("f.sql", "SELECT 1;\nDROP TABLE t CASCADE;\n");
    final DdlException e = source.errorAt(23, "no CASCADE", "CASCADE");
    assertEquals("f.sql:2:14: no CASCADE\nDROP TABLE t CASCADE;\n" + " ".repeat(13) + "^~~~~~~",
        e.getMessage());
  }
}
