package org.partita.fault;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;
import org.partita.client.BackpressureException;
import org.partita.client.CallTimeoutException;
import org.partita.client.ClientResponse;
import org.partita.client.ConnectionLostException;
import org.partita.client.FrameTooLargeException;
import org.partita.client.NoConnectionsException;
import org.partita.proto.ErrorCode;

/**
 * The one mapping from what the Java client reports to a history outcome
 * (docs/testing.md, "Outcomes"). Only what proves the transaction did not
 * run is a failure:
 *
 * <ul>
 *   <li>an answer with status SUCCESS: ok;
 *   <li>an answer with the error {@code OUTCOME_UNKNOWN} (a cluster
 *       leader deposed while it held the answer, or a participant lost
 *       mid-transaction: it may have committed): info;
 *   <li>any other answer (USER_ABORT, GRACEFUL_FAILURE, REJECTED,
 *       UNEXPECTED_FAILURE, TRANSACTION_TIMEOUT and CANCELLED among the
 *       error codes): fail, since the server rolled the transaction back or
 *       never ran it;
 *   <li>{@link NoConnectionsException}, {@link BackpressureException},
 *       {@link FrameTooLargeException}: fail, the call was never sent;
 *   <li>a {@link ConnectionLostException} for a call still queued when its
 *       connection dropped ("lost before the call to P was sent", the Java
 *       client's {@code Connection.failQueued}): fail, it was never written
 *       to the socket. The client tells the two cases apart only by the
 *       message, so this is matched on it ({@link #NOT_SENT});
 *   <li>{@link CallTimeoutException}, {@link ConnectionLostException} and
 *       anything else: info, the call may have run.
 * </ul>
 * Stateless.
 */
final class Outcomes {
  /** The Java client's message for a call its connection dropped before writing it. */
  static final Pattern NOT_SENT = Pattern.compile("^connection to \\S+ lost before the call to \\S+ was sent: ");
  private Outcomes() {
  }

  /** The outcome of an answer. */
  static Outcome of(ClientResponse response) {
    if (response.status() == ClientResponse.Status.SUCCESS) {
      return Outcome.OK;
    }
    return response.errorCode() == ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN ? Outcome.INFO : Outcome.FAIL;
  }

  /** The outcome of a call that completed exceptionally with {@code failure}. */
  static Outcome of(Throwable failure) {
    final Throwable cause = unwrap(failure);
    if (cause instanceof NoConnectionsException || cause instanceof BackpressureException
        || cause instanceof FrameTooLargeException) {
      return Outcome.FAIL;
    }
    if (cause instanceof ConnectionLostException && cause.getMessage() != null
        && NOT_SENT.matcher(cause.getMessage()).find()) {
      return Outcome.FAIL;
    }
    return Outcome.INFO;
  }

  /** Why it failed, in one line for the history's {@code error} field. */
  static String describe(Throwable failure) {
    final Throwable cause = unwrap(failure);
    return cause.getClass().getSimpleName() + ": " + cause.getMessage();
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable t = failure;
    while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
