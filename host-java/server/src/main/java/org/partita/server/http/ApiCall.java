package org.partita.server.http;

/**
 * One procedure call read from an HTTP request: the procedure's name and its
 * parameters, already converted to the Java types the dispatcher takes
 * (Long, BigDecimal, String, byte[], Instant or null), and the time limit it
 * asks for ({@code Timeout}, milliseconds; 0 = the server's default).
 * Immutable once built.
 */
record ApiCall(String procedure, Object[] parameters, int timeoutMillis) {}
