package org.partita.server.compiler.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SourcePositionTest {

  @Test
  void shouldPrintFileLineAndColumn() {
    assertEquals("schema.sql:12:8", new SourcePosition("schema.sql", 12, 8).toString());
  }

  @Test
  void shouldRejectZeroLineOrColumn() {
    assertThrows(IllegalArgumentException.class, () -> new SourcePosition("f", 0, 1));
    assertThrows(IllegalArgumentException.class, () -> new SourcePosition("f", 1, 0));
  }
}
