package org.partita.server.procedure;

import java.util.Arrays;

/**
 * The parameters of the statements a procedure has queued for its next
 * execute, kept without boxing: a {@code long} or {@code double} parameter
 * added with {@link #add(long)} or {@link #add(double)} stays a primitive
 * until it is written into the engine's batch. A procedure reaches it
 * through {@link Procedure#queue(SqlStmt)} and adds the statement's
 * parameters in order, at once:
 * <pre>{@code queue(insertVote).add(phoneNumber).add(state).add(contestantNumber);}</pre>
 * {@link Procedure#queue(SqlStmt, Object...)} fills the same buffer from its
 * array. Parameters are converted to the statement's types when the batch is
 * written, with the same rules and errors whichever way they were added
 * (docs/procedures.md, "Parameters").
 *
 * <p>The methods below {@link #add(Object)} are the runtime's: it starts a
 * statement, reads the parameters back per statement and clears the buffer
 * after each execute.
 *
 * <p>Owned by one procedure context and reused for every batch it runs:
 * confined to that context's thread (a site's, or a multi-partition
 * coordinator's).
 */
public final class ParameterBuffer {
  private static final byte OBJECT = 0;
  private static final byte LONG = 1;
  private static final byte DOUBLE = 2;
  private static final int INITIAL_PARAMETERS = 16;
  private static final int INITIAL_STATEMENTS = 8;

  private byte[] kinds = new byte[INITIAL_PARAMETERS];
  // A LONG parameter's value, or a DOUBLE parameter's bits.
  private long[] numbers = new long[INITIAL_PARAMETERS];
  private Object[] objects = new Object[INITIAL_PARAMETERS];
  private int size;
  // starts[i]: the index of statement i's first parameter.
  private int[] starts = new int[INITIAL_STATEMENTS];
  private int statements;

  /** Adds the next parameter of the statement queued last (any integer type widens to this). */
  public ParameterBuffer add(long value) {
    final int at = next();
    kinds[at] = LONG;
    numbers[at] = value;
    return this;
  }

  /** Adds the next parameter of the statement queued last (a float widens to this). */
  public ParameterBuffer add(double value) {
    final int at = next();
    kinds[at] = DOUBLE;
    numbers[at] = Double.doubleToRawLongBits(value);
    return this;
  }

  /**
   * Adds the next parameter of the statement queued last: null (SQL NULL),
   * a boxed number, BigDecimal, String, byte[] or Instant.
   */
  public ParameterBuffer add(Object value) {
    final int at = next();
    kinds[at] = OBJECT;
    objects[at] = value;
    return this;
  }

  /** Adds each of {@code values} (null: none) as {@link #add(Object)} does. */
  public ParameterBuffer addAll(Object[] values) {
    if (values != null) {
      for (Object v : values) {
        add(v);
      }
    }
    return this;
  }

  /** Runtime: starts the parameters of the next queued statement. */
  public void beginStatement() {
    if (statements == starts.length) {
      starts = Arrays.copyOf(starts, statements * 2);
    }
    starts[statements++] = size;
  }


  /** Runtime: forgets every statement and parameter (references included). */
  public void clear() {
    Arrays.fill(objects, 0, size, null);
    size = 0;
    statements = 0;
  }

  /** Runtime: how many statements were queued since the last clear. */
  public int statementCount() {
    return statements;
  }

  /** Runtime: the index of statement {@code statement}'s first parameter. */
  public int start(int statement) {
    return starts[statement];
  }

  /** Runtime: the index after statement {@code statement}'s last parameter. */
  public int end(int statement) {
    return statement + 1 < statements ? starts[statement + 1] : size;
  }

  /** Runtime: true iff parameter {@code i} was added as a long. */
  public boolean isLong(int i) {
    return kinds[i] == LONG;
  }

  /** Runtime: true iff parameter {@code i} was added as a double. */
  public boolean isDouble(int i) {
    return kinds[i] == DOUBLE;
  }

  /** Runtime: parameter {@code i}'s value. REQUIRES: {@link #isLong}. */
  public long longAt(int i) {
    return numbers[i];
  }

  /** Runtime: parameter {@code i}'s value. REQUIRES: {@link #isDouble}. */
  public double doubleAt(int i) {
    return Double.longBitsToDouble(numbers[i]);
  }

  /** Runtime: parameter {@code i} as an object (a long or double boxed). */
  public Object valueAt(int i) {
    return switch (kinds[i]) {
      case LONG -> numbers[i];
      case DOUBLE -> Double.longBitsToDouble(numbers[i]);
      default -> objects[i];
    };
  }

  /** Runtime: statement {@code statement}'s parameters as objects (longs and doubles boxed). */
  public Object[] values(int statement) {
    final int from = start(statement);
    final Object[] values = new Object[end(statement) - from];
    for (int i = 0; i < values.length; i++) {
      values[i] = valueAt(from + i);
    }
    return values;
  }

  private int next() {
    if (statements == 0) {
      throw new IllegalStateException("a parameter added with no statement queued: add parameters right after queue(statement)");
    }
    if (size == kinds.length) {
      final int capacity = size * 2;
      kinds = Arrays.copyOf(kinds, capacity);
      numbers = Arrays.copyOf(numbers, capacity);
      objects = Arrays.copyOf(objects, capacity);
    }
    return size++;
  }
}
