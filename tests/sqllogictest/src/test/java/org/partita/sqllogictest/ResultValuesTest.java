package org.partita.sqllogictest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.client.ValueType;

class ResultValuesTest {

  private static final ResultRows ROWS = ResultRows.builder(ValueType.BIGINT, ValueType.VARCHAR)
      .row(9L, "b")
      .row(10L, null)
      .row(9L, "a")
      .build();

  @Test
  void shouldKeepEngineOrderWithNosort() {
    assertEquals(List.of("9", "b", "10", "NULL", "9", "a"),
        ResultValues.of("IT", ROWS, SortMode.NOSORT));
  }

  @Test
  void shouldSortRowsAsStringsColumnByColumnWithRowsort() {
    assertEquals(List.of("10", "NULL", "9", "a", "9", "b"),
        ResultValues.of("IT", ROWS, SortMode.ROWSORT));
  }

  @Test
  void shouldSortEveryValueOnItsOwnWithValuesort() {
    assertEquals(List.of("10", "9", "9", "NULL", "a", "b"),
        ResultValues.of("IT", ROWS, SortMode.VALUESORT));
  }

  @Test
  void shouldSortFormattedValuesNotSqlValues() {
    final ResultRows reals = ResultRows.builder(ValueType.FLOAT).row(-1.0).row(-2.0).row(0.5).build();

    assertEquals(List.of("-1.000", "-2.000", "0.500"), ResultValues.of("R", reals, SortMode.ROWSORT));
  }

  @Test
  void shouldRegroupValuesIntoRowLines() {
    assertEquals(List.of("1 x", "2 (empty)"),
        ResultValues.asRowLines(List.of("1", "x", "2", "(empty)"), 2));
  }
}
