package org.partita.server.http;

/**
 * Passed down the pipeline in place of a request whose body exceeds the
 * limit, so that its 413 answer takes its turn behind earlier requests.
 * Immutable.
 *
 * @param maxBodyBytes the limit the body exceeded
 */
record OversizedRequest(int maxBodyBytes) {}
