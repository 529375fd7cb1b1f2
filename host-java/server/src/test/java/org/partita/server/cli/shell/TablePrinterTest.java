package org.partita.server.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;

class TablePrinterTest {
  @Test
  void shouldAlignColumnsAndRightAlignNumbers() {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    TablePrinter.print(new ResultTableBuilder()
        .column("NAME", ValueType.VARCHAR).column("VOTES", ValueType.BIGINT).column("SHARE", ValueType.DECIMAL)
        .column("RAW", ValueType.VARBINARY)
        .row("Edwina", 12L, new BigDecimal("0.5"), new byte[] {1, (byte) 0xab})
        .row("Al", 1234L, null, null).build(), new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertEquals("""
        NAME    VOTES  SHARE  RAW
        ------  -----  -----  ----
        Edwina     12    0.5  01ab
        Al       1234   NULL  NULL
        (2 rows)
        """, bytes.toString(StandardCharsets.UTF_8));
  }
}
