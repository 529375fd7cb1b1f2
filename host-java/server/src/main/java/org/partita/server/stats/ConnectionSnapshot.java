package org.partita.server.stats;

/**
 * The state of one client connection at one moment, as a front end reports
 * it for {@code @Statistics CONNECTIONS}. Immutable.
 *
 * @param connectionId the id the login response gave the client
 * @param remoteAddress the client's address and port ("127.0.0.1:53412")
 * @param clientName what the client called itself at login ("" when nothing)
 * @param connectedAtMillis when the connection was accepted, ms since the epoch
 * @param callsReceived invocations read from the connection so far
 * @param callsInFlight invocations received and not yet answered
 * @param bytesRead bytes read from the socket
 * @param bytesWritten bytes written to the socket
 * @param readsPaused whether the server stopped reading the socket (backpressure)
 */
public record ConnectionSnapshot(long connectionId, String remoteAddress, String clientName, long connectedAtMillis,
    long callsReceived, long callsInFlight, long bytesRead, long bytesWritten, boolean readsPaused) {}
