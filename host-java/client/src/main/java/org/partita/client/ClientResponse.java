package org.partita.client;

import java.util.List;

/**
 * The answer to one procedure call: a status, a message when it failed, the
 * result tables when it succeeded, the application status the procedure set,
 * and how long the server spent on it. Immutable.
 *
 * @param status what happened
 * @param errorName for failures, the error code's name (e.g. CONSTRAINT_VIOLATION)
 * @param message for failures, what went wrong and where
 * @param results the procedure's result tables (empty on failure)
 * @param appStatus what the procedure set with {@code setAppStatus} (0 when nothing)
 * @param appStatusMessage the text the procedure set with its app status (may be empty)
 * @param serverNanos nanoseconds the server spent on the call (0 when not measured, e.g. in process)
 */
public record ClientResponse(Status status, String errorName, String message, List<ResultTable> results,
    int appStatus, String appStatusMessage, long serverNanos) {
  /** Outcomes of a call; the numbers are those of {@code CallStatus} in proto/client.proto. */
  public enum Status {
    /** Committed; results are present. */
    SUCCESS(1),
    /** The procedure aborted itself; everything it wrote was rolled back. */
    USER_ABORT(2),
    /** A SQL or constraint error rolled the transaction back. */
    GRACEFUL_FAILURE(3),
    /** The call could not be run (unknown procedure, bad parameters, server shutting down). */
    REJECTED(4),
    /** An unexpected server error; the transaction was rolled back. */
    UNEXPECTED_FAILURE(5);

    private final int wireCode;

    Status(int wireCode) {
      this.wireCode = wireCode;
    }

    /** The number of this status in {@code CallStatus} (proto/client.proto). */
    public int wireCode() {
      return wireCode;
    }

    /** The status with wire number {@code code}, or UNEXPECTED_FAILURE for an unknown number. */
    public static Status fromWireCode(int code) {
      for (Status s : values()) {
        if (s.wireCode == code) {
          return s;
        }
      }
      return UNEXPECTED_FAILURE;
    }
  }

  public ClientResponse {
    results = List.copyOf(results);
    errorName = errorName == null ? "" : errorName;
    message = message == null ? "" : message;
    appStatusMessage = appStatusMessage == null ? "" : appStatusMessage;
  }

  public static ClientResponse success(List<ResultTable> results) {
    return new ClientResponse(Status.SUCCESS, "", "", results, 0, "", 0);
  }

  public static ClientResponse failure(Status status, String errorName, String message) {
    return new ClientResponse(status, errorName, message, List.of(), 0, "", 0);
  }

  /** This response with the application status a procedure set. */
  public ClientResponse withAppStatus(int code, String text) {
    return new ClientResponse(status, errorName, message, results, code, text, serverNanos);
  }

  /** This response with the server's time spent on the call. */
  public ClientResponse withServerNanos(long nanos) {
    return new ClientResponse(status, errorName, message, results, appStatus, appStatusMessage, nanos);
  }

  public boolean ok() {
    return status == Status.SUCCESS;
  }

  /** The first result table's first row's first column as a long (a procedure's long result). */
  public long firstLong() {
    if (results.isEmpty()) {
      throw new IllegalStateException("response has no result table: " + this);
    }
    final ResultTable t = results.get(0);
    t.resetRowPosition();
    if (!t.advanceRow()) {
      throw new IllegalStateException("first result table has no row: " + this);
    }
    return t.getLong(0);
  }

  @Override
  public String toString() {
    return ok() ? "SUCCESS " + results.size() + " table(s)" : status + " " + errorName + ": " + message;
  }
}
