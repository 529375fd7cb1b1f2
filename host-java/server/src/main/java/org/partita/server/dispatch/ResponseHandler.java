package org.partita.server.dispatch;

import org.partita.client.ClientResponse;

/** Receives the answer to one dispatched call; called exactly once, on any thread. Must not block. */
@FunctionalInterface
public interface ResponseHandler {
  void onResponse(ClientResponse response);
}
