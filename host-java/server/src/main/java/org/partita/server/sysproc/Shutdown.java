package org.partita.server.sysproc;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import org.partita.client.ClientResponse;
import org.partita.server.dispatch.ResponseHandler;

/**
 * {@code @Shutdown}: answers SUCCESS (no tables), then runs the server's
 * shutdown action once, on a new thread, so that the answer can still be
 * written while the server stops accepting work, finishes what is in flight
 * and exits. Later calls answer SUCCESS and do nothing more.
 */
final class Shutdown implements SystemProcedure {
  private static final Logger LOG = Logger.getLogger(Shutdown.class.getName());

  private final Runnable action;
  private final AtomicBoolean started = new AtomicBoolean();

  Shutdown(Runnable action) {
    this.action = action;
  }

  @Override
  public String name() {
    return "@Shutdown";
  }

  @Override
  public boolean call(Parameters parameters, ResponseHandler handler) {
    parameters.requireCount(0, 0, "()");
    handler.onResponse(ClientResponse.success(List.of()));
    if (started.compareAndSet(false, true)) {
      LOG.info("@Shutdown called: shutting down");
      final Thread thread = new Thread(action, "partita-shutdown");
      thread.start();
    }
    return true;
  }
}
