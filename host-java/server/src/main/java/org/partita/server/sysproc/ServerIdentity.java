package org.partita.server.sysproc;

/**
 * Who and where this server is, for {@code @Ping} and {@code @SystemCatalog
 * HOSTS}. Immutable; the server supplies a fresh one when ports are known.
 *
 * @param hostId this host's id in the topology
 * @param address the address clients connect to
 * @param clientPort the binary protocol's port (0 when not listening)
 * @param httpPort the HTTP/JSON port (0 when off)
 * @param startedAtMillis when the server started, ms since the epoch
 * @param serverVersion a short text naming the build ("Partita 0.1")
 */
public record ServerIdentity(int hostId, String address, int clientPort, int httpPort, long startedAtMillis,
    String serverVersion) {}
