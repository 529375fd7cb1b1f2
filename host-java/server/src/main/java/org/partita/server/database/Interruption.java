package org.partita.server.database;

import org.partita.proto.ErrorCode;
import org.partita.server.engine.EngineException;
import org.partita.server.error.ServerException;

/**
 * Whether a time limit or a cancel struck the running transaction. Such an
 * outcome depends on time, not on the data, so it must be final: the
 * transaction fails with it even if a procedure catches the exception and
 * goes on, and the commit pipeline records it as aborted so that replay
 * skips it (CommitPipeline#aborted). Confined to the thread running the
 * transaction; {@link #reset} at each transaction's start.
 */
final class Interruption {
  private RuntimeException struck;

  /** True iff {@code code} is a time limit's or a cancel's. */
  static boolean isInterruption(ErrorCode code) {
    return code == ErrorCode.ERROR_CODE_TRANSACTION_TIMEOUT || code == ErrorCode.ERROR_CODE_CANCELLED;
  }

  void reset() {
    struck = null;
  }

  /** Returns {@code e}, remembering it if it is the first time limit or cancel of this transaction. */
  RuntimeException note(RuntimeException e) {
    if (struck == null && isInterruption(codeOf(e))) {
      struck = e;
    }
    return e;
  }

  /** Throws the time limit or cancel that struck this transaction, if one did. */
  void rethrowIfStruck() {
    if (struck != null) {
      throw struck;
    }
  }

  private static ErrorCode codeOf(RuntimeException e) {
    if (e instanceof ServerException s) {
      return s.code();
    }
    return e instanceof EngineException engine ? engine.code() : ErrorCode.ERROR_CODE_UNSPECIFIED;
  }
}
