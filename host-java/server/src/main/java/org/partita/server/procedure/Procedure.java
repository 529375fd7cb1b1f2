package org.partita.server.procedure;

import java.util.Random;
import org.partita.client.ResultTable;

/**
 * Base class of stored procedures (docs/procedures.md). A procedure declares
 * its statements as {@link SqlStmt} fields and one public {@code run(...)}
 * method whose parameters are the call's parameters and which returns
 * {@code long}, {@link ResultTable}, {@code ResultTable[]} or nothing.
 *
 * <p>{@code run} queues statements with {@link #queue} and runs them with
 * {@link #execute}; each execute crosses into the engine once. The
 * transaction commits when {@code run} returns and rolls back, views
 * included, when it throws or calls {@link #abort}. Procedures must be
 * deterministic: use {@link #transactionTimestampMicros()} and
 * {@link #random()}, never the clock or an unseeded random.
 *
 * <p>Thread model: one instance per partition, used by that partition's thread
 * only; fields other than SqlStmt must not carry state between calls.
 */
public abstract class Procedure {
  private ProcedureContext context;

  /** Called by the runtime before each call. */
  final void bind(ProcedureContext newContext) {
    this.context = newContext;
  }

  /** Queues {@code statement} with its parameters for the next {@link #execute}. */
  protected final void queue(SqlStmt statement, Object... parameters) {
    context.queue(statement).addAll(parameters);
  }

  /**
   * Queues {@code statement} for the next {@link #execute}; add its
   * parameters, in order and at once, to the buffer returned:
   * {@code queue(insertVote).add(phoneNumber).add(state).add(contestantNumber);}.
   * A {@code long} or {@code double} added this way is not boxed (the
   * varargs form makes an array and boxes each number). The buffer takes
   * parameters for this statement until the next queue or execute.
   */
  protected final ParameterBuffer queue(SqlStmt statement) {
    return context.queue(statement);
  }

  /** Runs the queued statements; one result table per statement, in order. */
  protected final ResultTable[] execute() {
    return context.execute(false);
  }

  /**
   * Runs the queued statements as the transaction's last batch, letting the
   * engine commit in the same step; queueing more afterwards is an error.
   */
  protected final ResultTable[] executeLast() {
    return context.execute(true);
  }

  /**
   * {@link #execute} without new result objects: the array and its tables
   * are the runtime's, re-pointed at the results of a later batch of this
   * procedure (in this call or the next one on the partition) rather than
   * made anew. <b>They are valid until the next execute of any kind</b>:
   * read what you need from them before it, and keep no reference; a table
   * read afterwards may show another batch's rows. A table {@code run}
   * returns is copied first, so returning one is safe. For a procedure
   * called hundreds of thousands of times a second; where the tables cannot
   * be reused (a multi-partition procedure) it is {@link #execute}.
   */
  protected final ResultTable[] executeReusingTables() {
    return context.executeReusingTables(false);
  }

  /** {@link #executeLast} with the tables of {@link #executeReusingTables} (the same validity). */
  protected final ResultTable[] executeLastReusingTables() {
    return context.executeReusingTables(true);
  }

  /** The transaction's timestamp (µs since the epoch), the same on every replica. */
  protected final long transactionTimestampMicros() {
    return context.transactionTimestampMicros();
  }

  /** A random generator seeded by the transaction. */
  protected final Random random() {
    return context.random();
  }

  /**
   * Sets the application status returned to the caller with the response,
   * whether the transaction commits or not (the last call wins). Code 0 with
   * an empty message means "none".
   */
  protected final void setAppStatus(int code, String message) {
    context.setAppStatus(code, message == null ? "" : message);
  }

  /** Rolls back the transaction and answers the caller with {@code message}. */
  protected final void abort(String message) {
    throw new ProcedureAbortException(message);
  }
}
