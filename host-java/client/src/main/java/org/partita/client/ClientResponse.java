package org.partita.client;

import java.util.List;

/**
 * The answer to one procedure call: a status, a message when it failed, and
 * the result tables when it succeeded. Immutable.
 *
 * @param status what happened
 * @param errorName for failures, the error code's name (e.g. CONSTRAINT_VIOLATION)
 * @param message for failures, what went wrong and where
 * @param results the procedure's result tables (empty on failure)
 */
public record ClientResponse(Status status, String errorName, String message, List<ResultTable> results) {
  /** Outcomes of a call. */
  public enum Status {
    /** Committed; results are present. */
    SUCCESS,
    /** The procedure aborted itself; everything it wrote was rolled back. */
    USER_ABORT,
    /** A SQL or constraint error rolled the transaction back. */
    GRACEFUL_FAILURE,
    /** The call could not be run (unknown procedure, bad parameters). */
    REJECTED,
    /** An unexpected server error; the transaction was rolled back. */
    UNEXPECTED_FAILURE
  }

  public ClientResponse {
    results = List.copyOf(results);
  }

  public static ClientResponse success(List<ResultTable> results) {
    return new ClientResponse(Status.SUCCESS, "", "", results);
  }

  public static ClientResponse failure(Status status, String errorName, String message) {
    return new ClientResponse(status, errorName, message, List.of());
  }

  public boolean ok() {
    return status == Status.SUCCESS;
  }

  @Override
  public String toString() {
    return ok() ? "SUCCESS " + results.size() + " table(s)" : status + " " + errorName + ": " + message;
  }
}
