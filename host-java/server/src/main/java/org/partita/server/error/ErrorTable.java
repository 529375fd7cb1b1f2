package org.partita.server.error;

import java.util.EnumMap;
import java.util.Map;
import org.partita.client.ClientResponse;
import org.partita.client.ClientResponse.Status;
import org.partita.proto.ErrorCode;

/**
 * The one table from an error code to the status a caller sees
 * (docs/wire-protocol.md, "Statuses"). Every path that answers a call — the
 * database, the binary protocol, HTTP, system procedures — builds its
 * failures here, so one code always travels with one status:
 *
 * <ul>
 *   <li>REJECTED: the call did not run, or nothing of it remains (bad
 *       parameters, unknown procedure or statement, shutting down, wrong
 *       host, busy);
 *   <li>GRACEFUL_FAILURE: a SQL, constraint or limit error rolled the
 *       transaction back;
 *   <li>USER_ABORT: the procedure aborted itself;
 *   <li>UNEXPECTED_FAILURE: a server bug, a bad plan or catalog, or an
 *       outcome the answering host cannot know.
 * </ul>
 *
 * Immutable; a code added to errors.proto without a row here fails
 * {@code ErrorTableTest}.
 */
public final class ErrorTable {
  private static final Map<ErrorCode, Status> STATUS = new EnumMap<>(ErrorCode.class);

  static {
    rows(Status.REJECTED, ErrorCode.ERROR_CODE_BAD_PARAMETER, ErrorCode.ERROR_CODE_BAD_REQUEST,
        ErrorCode.ERROR_CODE_SHUTTING_DOWN, ErrorCode.ERROR_CODE_CATALOG_CHANGED, ErrorCode.ERROR_CODE_NOT_LEADER,
        ErrorCode.ERROR_CODE_PARTITION_UNAVAILABLE, ErrorCode.ERROR_CODE_PROCEDURE_NOT_FOUND,
        ErrorCode.ERROR_CODE_SERVER_BUSY, ErrorCode.ERROR_CODE_PERMISSION_DENIED,
        ErrorCode.ERROR_CODE_METHOD_NOT_ALLOWED, ErrorCode.ERROR_CODE_UNSUPPORTED_MEDIA_TYPE,
        ErrorCode.ERROR_CODE_REQUEST_TOO_LARGE, ErrorCode.ERROR_CODE_NOT_FOUND, ErrorCode.ERROR_CODE_DISK_FULL,
        ErrorCode.ERROR_CODE_AUTHENTICATION_FAILED);
    rows(Status.GRACEFUL_FAILURE, ErrorCode.ERROR_CODE_CONSTRAINT_VIOLATION, ErrorCode.ERROR_CODE_NOT_NULL_VIOLATION,
        ErrorCode.ERROR_CODE_NUMERIC_OUT_OF_RANGE, ErrorCode.ERROR_CODE_VALUE_TOO_LONG,
        ErrorCode.ERROR_CODE_TYPE_MISMATCH, ErrorCode.ERROR_CODE_DIVISION_BY_ZERO,
        ErrorCode.ERROR_CODE_RESULT_TOO_LARGE, ErrorCode.ERROR_CODE_SQL_ERROR, ErrorCode.ERROR_CODE_WRONG_PARTITION,
        ErrorCode.ERROR_CODE_TRANSACTION_TIMEOUT, ErrorCode.ERROR_CODE_QUERY_MEMORY_LIMIT,
        ErrorCode.ERROR_CODE_CANCELLED);
    rows(Status.USER_ABORT, ErrorCode.ERROR_CODE_USER_ABORT);
    rows(Status.UNEXPECTED_FAILURE, ErrorCode.ERROR_CODE_UNSPECIFIED, ErrorCode.ERROR_CODE_OK,
        ErrorCode.ERROR_CODE_BAD_CATALOG, ErrorCode.ERROR_CODE_BAD_PLAN, ErrorCode.ERROR_CODE_INTERNAL,
        ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN);
  }

  private ErrorTable() {}

  private static void rows(Status status, ErrorCode... codes) {
    for (ErrorCode code : codes) {
      if (STATUS.put(code, status) != null) {
        throw new IllegalStateException(code + " has two rows in the error table");
      }
    }
  }

  /** The status a failure with {@code code} is answered with. */
  public static Status statusOf(ErrorCode code) {
    final Status status = STATUS.get(code);
    return status == null ? Status.UNEXPECTED_FAILURE : status;
  }

  /** True iff {@code code} has a row (every code of errors.proto must). */
  static boolean hasRow(ErrorCode code) {
    return STATUS.containsKey(code);
  }

  /** The failure response for {@code code}, with its status from the table. */
  public static ClientResponse response(ErrorCode code, String message) {
    return ClientResponse.failure(statusOf(code), code, message);
  }

  /** The failure response for {@code e}. */
  public static ClientResponse response(ServerException e) {
    return response(e.code(), e.getMessage());
  }

  /** The code's name without its ERROR_CODE_ prefix. */
  public static String name(ErrorCode code) {
    return ClientResponse.errorName(code);
  }
}
