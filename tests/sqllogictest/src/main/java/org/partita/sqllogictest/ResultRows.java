package org.partita.sqllogictest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.partita.client.ValueType;

/**
 * The rows a statement returned: the engine's column types and the values, row by row.
 *
 * <p>Values are Java objects: {@link Long} (integer types and TIMESTAMP), {@link Double} (FLOAT),
 * {@link java.math.BigDecimal} (DECIMAL), {@link String} (VARCHAR), {@code byte[]} (VARBINARY),
 * {@link Boolean}, or null for SQL NULL. The runner formats them by the query's type letters (see
 * {@link ValueFormatter}); the column types only appear in failure reports. Immutable apart from
 * the contents of {@code byte[]} values, which callers must not change.
 */
public final class ResultRows {

  private static final ResultRows EMPTY = new ResultRows(List.of(), List.of());

  private final List<ValueType> columnTypes;
  private final List<List<Object>> rows;

  /**
   * REQUIRES: every row holds exactly {@code columnTypes.size()} values. Both lists are copied;
   * rows may hold nulls.
   */
  public ResultRows(List<ValueType> columnTypes, List<List<Object>> rows) {
    this.columnTypes = List.copyOf(columnTypes);
    final List<List<Object>> copy = new ArrayList<>(rows.size());
    for (final List<Object> row : rows) {
      if (row.size() != columnTypes.size()) {
        throw new IllegalArgumentException(
            "row has " + row.size() + " values but there are " + columnTypes.size() + " columns");
      }
      copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
    }
    this.rows = Collections.unmodifiableList(copy);
  }

  /** No columns and no rows: what DDL and DML statements return. */
  public static ResultRows empty() {
    return EMPTY;
  }

  /** Starts a result with columns of {@code types}. */
  public static Builder builder(ValueType... types) {
    return new Builder(Arrays.asList(types));
  }

  public List<ValueType> columnTypes() {
    return columnTypes;
  }

  public int columnCount() {
    return columnTypes.size();
  }

  /** The rows, each a list of {@link #columnCount()} values. */
  public List<List<Object>> rows() {
    return rows;
  }

  public int rowCount() {
    return rows.size();
  }

  @Override
  public String toString() {
    return "ResultRows" + columnTypes + " x " + rows.size() + " rows";
  }

  /** Collects rows one at a time; {@link #build()} checks their widths. Not thread-safe. */
  public static final class Builder {
    private final List<ValueType> types;
    private final List<List<Object>> rows = new ArrayList<>();

    private Builder(List<ValueType> types) {
      this.types = types;
    }

    /** Adds a row; {@code values} may hold nulls. */
    public Builder row(Object... values) {
      rows.add(Arrays.asList(values));
      return this;
    }

    public ResultRows build() {
      return new ResultRows(types, rows);
    }
  }
}
