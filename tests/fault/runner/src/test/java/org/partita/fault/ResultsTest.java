package org.partita.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;

class ResultsTest {
  private static ClientResponse answer(ResultTableBuilder table) {
    return ClientResponse.success(List.of(table.build()));
  }

  private static ResultTableBuilder slots() {
    return new ResultTableBuilder().column("SLOT", ValueType.BIGINT).column("VAL", ValueType.BIGINT);
  }

  @Test
  void shouldReadARegisterOrNull() {
    assertEquals("7", Results.firstValueOrNull(answer(new ResultTableBuilder().column("VAL", ValueType.BIGINT)
        .row(7L))));
    assertEquals("null", Results.firstValueOrNull(answer(new ResultTableBuilder().column("VAL",
        ValueType.BIGINT))));
  }

  @Test
  void shouldKeepNullsInAColumn() {
    assertEquals("[null,5]", Results.column(answer(slots().row(0L, null).row(1L, 5L)), 1));
    assertEquals("[]", Results.column(answer(slots()), 1));
  }

  @Test
  void shouldMapAccountsToBalances() {
    assertEquals("{\"0\":100,\"1\":95}", Results.keyedValues(answer(slots().row(0L, 100L).row(1L, 95L))));
  }

  @Test
  void shouldTurnALongIntoABoolean() {
    final ResultTableBuilder result = new ResultTableBuilder().column("RESULT", ValueType.BIGINT);
    assertEquals("true", Results.asBoolean(answer(result.row(1L))));
    assertEquals("false", Results.asBoolean(answer(new ResultTableBuilder().column("RESULT", ValueType.BIGINT)
        .row(0L))));
  }

  @Test
  void shouldListEveryRowForTheChecksum() {
    assertEquals("0\tnull\n1\t5\n", Results.rows(answer(slots().row(0L, null).row(1L, 5L))));
  }
}
