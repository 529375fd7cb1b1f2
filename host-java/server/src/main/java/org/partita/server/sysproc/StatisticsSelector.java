package org.partita.server.sysproc;

import org.partita.server.dispatch.ResponseHandler;

/**
 * One selector of {@code @Statistics}: builds its table. Thread-safe, never blocks.
 */
interface StatisticsSelector {
  /**
   * Answers {@code handler} with the selector's table: figures since the
   * previous interval read of this selector when {@code interval}, else since
   * the server started (selectors of current state ignore it). Returns false
   * iff a queue it needs is full (nothing done, handler not called).
   */
  boolean answer(boolean interval, ResponseHandler handler);
}
