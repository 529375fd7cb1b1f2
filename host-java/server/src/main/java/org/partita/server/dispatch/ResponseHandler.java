package org.partita.server.dispatch;

import java.util.function.Consumer;
import org.partita.client.ClientResponse;

/**
 * Receives the answer to one dispatched call; called exactly once, on any
 * thread. Must not block. It is also a {@code Consumer}, the form the
 * database takes, so a handler passes through without a wrapper per call.
 */
@FunctionalInterface
public interface ResponseHandler extends Consumer<ClientResponse> {
  void onResponse(ClientResponse response);

  @Override
  default void accept(ClientResponse response) {
    onResponse(response);
  }
}
