package org.partita.server.sysproc;

import org.partita.server.error.ServerException;
import org.partita.server.dispatch.ResponseHandler;

/**
 * One system procedure ({@code @Ping}, {@code @Statistics}, ...).
 *
 * <p>Thread model: implementations are thread-safe and never block; calls
 * come from any thread (usually a network event loop).
 */
interface SystemProcedure {
  /** The name with its '@', as documented ("@SystemCatalog"). */
  String name();

  /**
   * Runs the procedure with the Dispatcher's contract: returns false iff a
   * queue it needs is full (nothing run, {@code handler} not called); else
   * {@code handler} gets exactly one response, on any thread.
   *
   * @throws ServerException (BAD_PARAMETER) before answering, when a parameter is wrong
   */
  boolean call(Parameters parameters, ResponseHandler handler);
}
