package org.partita.server.sysproc;

import java.util.concurrent.atomic.AtomicBoolean;
import org.partita.client.ClientResponse;
import org.partita.server.dispatch.ResponseHandler;

/**
 * Passes the first response on and drops any later one, so that a caller's
 * handler is answered exactly once even when a failure is reported after an
 * answer. Thread-safe.
 */
final class OnceHandler implements ResponseHandler {
  private final ResponseHandler target;
  private final AtomicBoolean answered = new AtomicBoolean();

  OnceHandler(ResponseHandler target) {
    this.target = target;
  }

  @Override
  public void onResponse(ClientResponse response) {
    if (answered.compareAndSet(false, true)) {
      target.onResponse(response);
    }
  }

  /** Whether a response was passed on. */
  boolean answered() {
    return answered.get();
  }
}
