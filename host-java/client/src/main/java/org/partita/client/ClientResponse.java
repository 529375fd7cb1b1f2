package org.partita.client;

import java.util.List;
import org.partita.client.proto.CallStatus;
import org.partita.proto.ErrorCode;

/**
 * The answer to one procedure call: a status, a message when it failed, the
 * result tables when it succeeded, the application status the procedure set,
 * and how long the server spent on it. Immutable.
 *
 * @param status what happened
 * @param errorCode for failures, what went wrong, as a code of proto/errors.proto
 *     (ERROR_CODE_UNSPECIFIED on success); {@link #errorName()} is its name
 * @param message for failures, what went wrong and where
 * @param results the procedure's result tables (empty on failure)
 * @param appStatus what the procedure set with {@code setAppStatus} (0 when nothing)
 * @param appStatusMessage the text the procedure set with its app status (may be empty)
 * @param serverNanos nanoseconds the server spent on the call (0 when not measured, e.g. in process)
 */
public record ClientResponse(Status status, ErrorCode errorCode, String message, List<ResultTable> results,
    int appStatus, String appStatusMessage, long serverNanos) {
  private static final String ERROR_CODE_PREFIX = "ERROR_CODE_";

  /** Outcomes of a call, one for each {@code CallStatus} of proto/client.proto. */
  public enum Status {
    /** Committed; results are present. */
    SUCCESS(CallStatus.CALL_STATUS_SUCCESS),
    /** The procedure aborted itself; everything it wrote was rolled back. */
    USER_ABORT(CallStatus.CALL_STATUS_USER_ABORT),
    /** A SQL or constraint error rolled the transaction back. */
    GRACEFUL_FAILURE(CallStatus.CALL_STATUS_GRACEFUL_FAILURE),
    /** The call could not be run (unknown procedure, bad parameters, server shutting down). */
    REJECTED(CallStatus.CALL_STATUS_REJECTED),
    /** An unexpected server error; the transaction was rolled back. */
    UNEXPECTED_FAILURE(CallStatus.CALL_STATUS_UNEXPECTED_FAILURE);

    private final int wireCode;

    // values() copies its array on every call; an answer asks once.
    private static final Status[] VALUES = values();

    Status(CallStatus wire) {
      this.wireCode = wire.getNumber();
    }

    /** The number of this status in {@code CallStatus} (proto/client.proto). */
    public int wireCode() {
      return wireCode;
    }

    /** The status with wire number {@code code}, or UNEXPECTED_FAILURE for an unknown number. */
    public static Status fromWireCode(int code) {
      for (Status s : VALUES) {
        if (s.wireCode == code) {
          return s;
        }
      }
      return UNEXPECTED_FAILURE;
    }
  }

  public ClientResponse {
    results = List.copyOf(results);
    errorCode = errorCode == null ? ErrorCode.ERROR_CODE_UNSPECIFIED : errorCode;
    message = message == null ? "" : message;
    appStatusMessage = appStatusMessage == null ? "" : appStatusMessage;
  }

  public static ClientResponse success(List<ResultTable> results) {
    return new ClientResponse(Status.SUCCESS, ErrorCode.ERROR_CODE_UNSPECIFIED, "", results, 0, "", 0);
  }

  public static ClientResponse failure(Status status, ErrorCode errorCode, String message) {
    return new ClientResponse(status, errorCode, message, List.of(), 0, "", 0);
  }

  /** This response with the application status a procedure set. */
  public ClientResponse withAppStatus(int code, String text) {
    return new ClientResponse(status, errorCode, message, results, code, text, serverNanos);
  }

  /** This response with the server's time spent on the call. */
  public ClientResponse withServerNanos(long nanos) {
    return new ClientResponse(status, errorCode, message, results, appStatus, appStatusMessage, nanos);
  }

  /**
   * The error code's name without its prefix ("CONSTRAINT_VIOLATION"), as the
   * wire's {@code error_name} carries it; empty on success.
   */
  public String errorName() {
    return errorName(errorCode);
  }

  /** {@code code}'s name without the ERROR_CODE_ prefix; empty for UNSPECIFIED. */
  public static String errorName(ErrorCode code) {
    if (code == ErrorCode.ERROR_CODE_UNSPECIFIED || code == ErrorCode.UNRECOGNIZED) {
      return "";
    }
    return code.name().substring(ERROR_CODE_PREFIX.length());
  }

  /**
   * The code named {@code name} (with or without the ERROR_CODE_ prefix), or
   * ERROR_CODE_UNSPECIFIED when no code has that name.
   */
  public static ErrorCode errorCodeNamed(String name) {
    if (name == null || name.isEmpty()) {
      return ErrorCode.ERROR_CODE_UNSPECIFIED;
    }
    try {
      return ErrorCode.valueOf(name.startsWith(ERROR_CODE_PREFIX) ? name : ERROR_CODE_PREFIX + name);
    } catch (IllegalArgumentException e) {
      return ErrorCode.ERROR_CODE_UNSPECIFIED;
    }
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
    return ok() ? "SUCCESS " + results.size() + " table(s)" : status + " " + errorName() + ": " + message;
  }
}
