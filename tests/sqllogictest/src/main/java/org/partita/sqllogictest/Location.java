package org.partita.sqllogictest;

/**
 * Where a script record starts: the script's name as given to the parser and the 1-based number of
 * the record's header line ({@code statement ...} or {@code query ...}, after any conditions).
 */
public record Location(String file, int line) {

  /** Returns {@code file:line}, the form editors and terminals recognise. */
  @Override
  public String toString() {
    return file + ":" + line;
  }
}
