package org.partita.server.database;

import java.util.List;
import org.partita.proto.ErrorCode;
import org.partita.server.engine.PartitionEngine;
import org.partita.server.error.ServerException;
import org.partita.server.txn.Invocation;

/**
 * The call a site (or the coordinator) is running now, so that
 * {@code @CancelQuery} can stop it (docs/system-procedures.md). A cancel
 * marks the call and asks the engines it runs on to stop their batch; the
 * running thread also checks the mark before each batch, so a cancel that
 * arrives between two batches of a procedure is not lost.
 *
 * <p>Thread model: {@link #begin}, {@link #end} and {@link #checkNotCancelled}
 * are called by the thread running the call; {@link #cancel} by any thread.
 * All state is guarded by this object's lock, so a cancel can never reach
 * the engine after its call ended (the next call's batch would be stopped).
 */
final class RunningCall {
  private final List<PartitionEngine> engines;
  private Invocation running;
  private boolean cancelled;

  /** @param engines the engines a running call's batches use (read at cancel time) */
  RunningCall(List<PartitionEngine> engines) {
    this.engines = engines;
  }

  /** {@code invocation} starts running (null: work of no client call). */
  synchronized void begin(Invocation invocation) {
    running = invocation;
    cancelled = false;
  }

  /** The call ended; a later cancel finds nothing. */
  synchronized void end() {
    running = null;
    cancelled = false;
  }

  /** Cancels the running call if it is client {@code clientId}'s. Returns it, or null when nothing matched. */
  synchronized Invocation cancel(long clientId) {
    return running != null && running.clientId() == clientId ? cancelRunning() : null;
  }

  /** Cancels the running call, whoever's. Returns it, or null when nothing runs. */
  synchronized Invocation cancelAny() {
    return running == null ? null : cancelRunning();
  }

  /** REQUIRES: holds this object's lock. */
  private Invocation cancelRunning() {
    cancelled = true;
    for (PartitionEngine engine : engines) {
      if (engine != null) {
        engine.cancel();
      }
    }
    return running;
  }

  /** @throws ServerException CANCELLED when the running call was cancelled */
  synchronized void checkNotCancelled() {
    if (cancelled) {
      throw new ServerException(ErrorCode.ERROR_CODE_CANCELLED,
          "cancelled by @CancelQuery; the transaction was rolled back");
    }
  }
}
