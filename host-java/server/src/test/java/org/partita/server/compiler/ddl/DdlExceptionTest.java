package org.partita.server.compiler.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class DdlExceptionTest {

  private static final SourcePosition AT_12_8 = new SourcePosition("schema.sql", 12, 8);

  @Test
  void shouldFormatPositionAndReason() {
    final DdlException e =
        new DdlException(AT_12_8, "expected COLUMN after ON, found 'COLUM'", "COLUM");
    assertEquals("schema.sql:12:8: expected COLUMN after ON, found 'COLUM'", e.getMessage());
    assertEquals(AT_12_8, e.position());
    assertEquals("expected COLUMN after ON, found 'COLUM'", e.reason());
    assertEquals(Optional.of("COLUM"), e.offendingText());
    assertEquals(Optional.empty(), e.sourceLine());
  }

  @Test
  void shouldUnderlineOffendingTextBelowSourceLine() {
    final String line = "PARTITION TABLE votes ON COLUM phone;";
    final DdlException e = new DdlException(
        new SourcePosition("schema.sql", 4, 26), "expected COLUMN", "COLUM", line);
    assertEquals("schema.sql:4:26: expected COLUMN\n" + line + "\n" + " ".repeat(25) + "^~~~~",
        e.getMessage());
  }

  @Test
  void shouldPutSingleCaretWithoutOffendingText() {
    final DdlException e =
        new DdlException(new SourcePosition("f", 1, 4), "unexpected end", null, "ON");
    assertEquals("f:1:4: unexpected end\nON\n   ^", e.getMessage());
    assertTrue(e.offendingText().isEmpty());
  }

  @Test
  void shouldKeepTabsSoCaretStaysAligned() {
    final String line = "\tDROP TABLE x CASCADE";
    final DdlException e =
        new DdlException(new SourcePosition("f", 1, 15), "no CASCADE", "CASCADE", line);
    assertEquals("f:1:15: no CASCADE\n" + line + "\n\t" + " ".repeat(13) + "^~~~~~~",
        e.getMessage());
  }

  @Test
  void shouldClipUnderlineAtEndOfLine() {
    final DdlException e =
        new DdlException(new SourcePosition("f", 1, 3), "bad", "/* comment\nmore", "x /* com");
    assertEquals("f:1:3: bad\nx /* com\n  ^~~~~~", e.getMessage());
  }

  @Test
  void shouldBeCheckedException() {
    assertTrue(Exception.class.isAssignableFrom(DdlException.class));
    assertTrue(!RuntimeException.class.isAssignableFrom(DdlException.class));
  }
}
