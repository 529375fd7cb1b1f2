package org.partita.server.planner;

/**
 * A statement that cannot be planned: unknown names, type errors, constructs
 * Partita does not support, or partitioning rules a statement breaks. The
 * message names what was wrong and, where there is one, the offending text.
 */
public class PlanningException extends Exception {
  private static final long serialVersionUID = 1L;

  public PlanningException(String message) {
    super(message);
  }

  public PlanningException(String message, Throwable cause) {
    super(message, cause);
  }
}
