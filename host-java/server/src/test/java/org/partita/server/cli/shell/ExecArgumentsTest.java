package org.partita.server.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ExecArgumentsTest {
  @Test
  void shouldTypeEachArgument() {
    assertEquals(Arrays.asList(6175551234L, "MA", new BigDecimal("1.5"), null, "it's", "word"),
        ExecArguments.parse("6175551234, 'MA' 1.5 null 'it''s' word"));
  }

  @Test
  void shouldNameTheColumnOfAnUnterminatedString() {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ExecArguments.parse("1 'abc"));
    assertEquals("unterminated string starting at column 3", e.getMessage());
  }
}
