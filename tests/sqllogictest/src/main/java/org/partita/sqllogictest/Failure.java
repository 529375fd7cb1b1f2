package org.partita.sqllogictest;

/**
 * A record that did not pass: where it is, its SQL, why it failed, and what was expected and found
 * (each as text, possibly several lines; empty when there is nothing to show).
 */
public record Failure(Location location, String sql, String reason, String expected, String actual) {}
