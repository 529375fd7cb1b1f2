package org.partita.jdbc;

import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;
import org.partita.client.BackpressureException;
import org.partita.client.CallTimeoutException;
import org.partita.client.ClientResponse;
import org.partita.client.ConnectionLostException;
import org.partita.client.FrameTooLargeException;
import org.partita.client.LoginRefusedException;
import org.partita.client.NoConnectionsException;
import org.partita.client.PartitaClientException;
import org.partita.proto.ErrorCode;

/**
 * The one table from Partita's failures to JDBC: each server error code
 * (proto/errors.proto) and each client-side failure becomes an SQLException
 * subclass with a SQLState (host-java/jdbc/README.md lists the table). The
 * SQLException's vendor code is the error code's number; its message is the
 * server's. Stateless.
 */
final class SqlStates {
  static final String FEATURE_NOT_SUPPORTED = "0A000";
  static final String CONNECTION_DOES_NOT_EXIST = "08003";
  static final String UNABLE_TO_CONNECT = "08001";
  static final String CONNECTION_FAILURE = "08006";
  static final String WRONG_PARAMETER_COUNT = "07001";
  static final String NOT_A_QUERY = "07005";
  static final String INVALID_INDEX = "07009";
  static final String INVALID_PARAMETER_VALUE = "22023";
  static final String NUMERIC_OUT_OF_RANGE = "22003";
  static final String INVALID_CAST = "22018";
  static final String INVALID_TRANSACTION_STATE = "25000";
  static final String SYNTAX_ERROR = "42000";
  static final String COLUMN_NOT_FOUND = "42S22";
  static final String FUNCTION_SEQUENCE = "HY010";
  static final String TIMEOUT = "HYT00";
  static final String GENERAL = "HY000";

  private SqlStates() {}

  /** The exception for a server answer other than SUCCESS to {@code what} ("@AdHoc", "Vote"). */
  static SQLException fromResponse(String what, ClientResponse response) {
    final String message = what + ": " + response.status() + " "
        + (response.errorName().isEmpty() ? "" : response.errorName() + ": ") + response.message();
    return forCode(response.errorCode(), message);
  }

  /** The exception for server error {@code code} with {@code message}. */
  static SQLException forCode(ErrorCode code, String message) {
    final int vendor = code == ErrorCode.UNRECOGNIZED ? -1 : code.getNumber();
    switch (code) {
      case ERROR_CODE_CONSTRAINT_VIOLATION:
        return new SQLIntegrityConstraintViolationException(message, "23505", vendor);
      case ERROR_CODE_NOT_NULL_VIOLATION:
        return new SQLIntegrityConstraintViolationException(message, "23502", vendor);
      case ERROR_CODE_NUMERIC_OUT_OF_RANGE:
        return new SQLDataException(message, NUMERIC_OUT_OF_RANGE, vendor);
      case ERROR_CODE_VALUE_TOO_LONG:
        return new SQLDataException(message, "22001", vendor);
      case ERROR_CODE_TYPE_MISMATCH:
        return new SQLDataException(message, INVALID_CAST, vendor);
      case ERROR_CODE_DIVISION_BY_ZERO:
        return new SQLDataException(message, "22012", vendor);
      case ERROR_CODE_BAD_PARAMETER:
        return new SQLDataException(message, INVALID_PARAMETER_VALUE, vendor);
      case ERROR_CODE_SQL_ERROR:
      case ERROR_CODE_NOT_FOUND:
      case ERROR_CODE_PROCEDURE_NOT_FOUND:
        return new SQLSyntaxErrorException(message, SYNTAX_ERROR, vendor);
      case ERROR_CODE_PERMISSION_DENIED:
        return new SQLInvalidAuthorizationSpecException(message, "42501", vendor);
      case ERROR_CODE_AUTHENTICATION_FAILED:
        return new SQLInvalidAuthorizationSpecException(message, "28000", vendor);
      case ERROR_CODE_USER_ABORT:
        return new SQLTransactionRollbackException(message, "40000", vendor);
      case ERROR_CODE_CATALOG_CHANGED:
        return new SQLTransactionRollbackException(message, "40001", vendor);
      case ERROR_CODE_TRANSACTION_TIMEOUT:
      case ERROR_CODE_CANCELLED:
        return new SQLTimeoutException(message, "57014", vendor);
      case ERROR_CODE_SERVER_BUSY:
        return new SQLTransientException(message, "53000", vendor);
      case ERROR_CODE_DISK_FULL:
        return new SQLTransientException(message, "53100", vendor);
      case ERROR_CODE_QUERY_MEMORY_LIMIT:
        return new SQLException(message, "53200", vendor);
      case ERROR_CODE_RESULT_TOO_LARGE:
        return new SQLException(message, "54000", vendor);
      case ERROR_CODE_WRONG_PARTITION:
        return new SQLException(message, "2F000", vendor);
      case ERROR_CODE_SHUTTING_DOWN:
      case ERROR_CODE_NOT_LEADER:
      case ERROR_CODE_PARTITION_UNAVAILABLE:
        return new SQLTransientConnectionException(message, CONNECTION_FAILURE, vendor);
      case ERROR_CODE_OUTCOME_UNKNOWN:
        return new SQLException(message, "08007", vendor);
      case ERROR_CODE_INTERNAL:
      case ERROR_CODE_BAD_PLAN:
      case ERROR_CODE_BAD_CATALOG:
        return new SQLException(message, "XX000", vendor);
      default:
        return new SQLException(message, GENERAL, vendor);
    }
  }

  /** The exception for a client-side failure of a call to {@code what}. */
  static SQLException fromClient(String what, PartitaClientException e) {
    final String message = what + ": " + e.getMessage();
    if (e instanceof CallTimeoutException) {
      return new SQLTimeoutException(message, TIMEOUT, e);
    }
    if (e instanceof ConnectionLostException || e instanceof NoConnectionsException) {
      return new SQLTransientConnectionException(message, CONNECTION_FAILURE, e);
    }
    if (e instanceof BackpressureException) {
      return new SQLTransientException(message, "53000", e);
    }
    if (e instanceof FrameTooLargeException) {
      return new SQLException(message, "54000", e);
    }
    if (e instanceof LoginRefusedException) {
      return new SQLInvalidAuthorizationSpecException(message, "28000", e);
    }
    return new SQLException(message, GENERAL, e);
  }

  /** A feature the driver does not have, named {@code what}, with why. */
  static SQLFeatureNotSupportedException unsupported(String what, String why) {
    return new SQLFeatureNotSupportedException(what + " is not supported: " + why, FEATURE_NOT_SUPPORTED);
  }

  /** A method of the JDBC API this driver does not implement. */
  static SQLFeatureNotSupportedException unsupported(String method) {
    return unsupported(method, "the Partita JDBC driver does not implement it (host-java/jdbc/README.md)");
  }

  /** Auto-commit is the only mode: {@code what} needs a transaction spanning statements. */
  static SQLFeatureNotSupportedException autoCommitOnly(String what) {
    return unsupported(what, "Partita runs each statement and each procedure call as its own transaction"
        + " (auto-commit only); put statements that must commit together in a stored procedure");
  }

  static SQLNonTransientConnectionException closed(String what) {
    return new SQLNonTransientConnectionException(what + " is closed", CONNECTION_DOES_NOT_EXIST);
  }
}
