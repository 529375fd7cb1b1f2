package org.partita.server.http;

/**
 * Where an endpoint sends its one answer to a request. REQUIRES: called
 * exactly once per request, on the connection's event loop.
 */
@FunctionalInterface
interface ReplySink {
  void send(Reply reply);
}
