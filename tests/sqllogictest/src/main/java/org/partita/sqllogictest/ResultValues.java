package org.partita.sqllogictest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Turns rows into the flat list of formatted values that a script compares and hashes: row by row,
 * each value formatted by its column's type letter, then ordered by the query's {@link SortMode}.
 * Stateless and thread-safe.
 */
public final class ResultValues {

  private ResultValues() {}

  /**
   * Returns the formatted values of {@code rows} in row-major order, sorted by {@code mode}.
   *
   * <p>REQUIRES: {@code types.length() == rows.columnCount()}.
   */
  public static List<String> of(String types, ResultRows rows, SortMode mode) {
    final List<List<String>> formatted = new ArrayList<>(rows.rowCount());
    for (final List<Object> row : rows.rows()) {
      final List<String> out = new ArrayList<>(row.size());
      for (int column = 0; column < row.size(); column++) {
        out.add(ValueFormatter.format(row.get(column), types.charAt(column)));
      }
      formatted.add(out);
    }
    if (mode == SortMode.ROWSORT) {
      formatted.sort(ResultValues::compareRows);
    }
    final List<String> values = new ArrayList<>(rows.rowCount() * types.length());
    formatted.forEach(values::addAll);
    if (mode == SortMode.VALUESORT) {
      Collections.sort(values, Comparator.naturalOrder());
    }
    return values;
  }

  /** Column by column as strings, like the reference runner's {@code strcmp}-based sort. */
  private static int compareRows(List<String> a, List<String> b) {
    for (int column = 0; column < a.size(); column++) {
      final int order = a.get(column).compareTo(b.get(column));
      if (order != 0) {
        return order;
      }
    }
    return 0;
  }

  /** Returns {@code values} regrouped as rows of {@code columns}, each joined by single spaces. */
  public static List<String> asRowLines(List<String> values, int columns) {
    final List<String> lines = new ArrayList<>();
    for (int start = 0; start < values.size(); start += columns) {
      lines.add(String.join(" ", values.subList(start, Math.min(values.size(), start + columns))));
    }
    return lines;
  }
}
