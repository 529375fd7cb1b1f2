package org.partita.server.stats;

/**
 * One client connection as @Statistics CONNECTIONS reports it. Immutable.
 *
 * @param id the connection's id on this host
 * @param remoteAddress the client's address and port
 * @param clientName the name the client gave at login (may be empty)
 * @param connectedAtMillis when the connection was accepted (ms since the epoch)
 * @param callsReceived invocations received so far
 * @param callsInFlight invocations received and not yet answered
 * @param bytesRead bytes read from the socket
 * @param bytesWritten bytes written to the socket
 * @param readsPaused whether the server stopped reading from it (backpressure)
 */
public record ConnectionSnapshot(long id, String remoteAddress, String clientName, long connectedAtMillis,
    long callsReceived, int callsInFlight, long bytesRead, long bytesWritten, boolean readsPaused) {}
