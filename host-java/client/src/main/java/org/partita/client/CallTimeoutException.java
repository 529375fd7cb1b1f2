package org.partita.client;

import java.time.Duration;

/**
 * No answer arrived within the call's timeout. The call may still run on the
 * server; its late answer is dropped (and counted in the statistics).
 */
public final class CallTimeoutException extends RetriableException {
  private final String procedure;
  private final Duration timeout;

  public CallTimeoutException(String procedure, Duration timeout) {
    super("call to " + procedure + " timed out after " + timeout.toMillis() + " ms without an answer");
    this.procedure = procedure;
    this.timeout = timeout;
  }

  public String procedure() {
    return procedure;
  }

  public Duration timeout() {
    return timeout;
  }
}
