package org.partita.sqllogictest;

/**
 * Hears what {@link ScriptRunner} does, on the runner's thread, while a file runs. Both methods do
 * nothing by default.
 */
public interface RunListener {

  /** Called after each record of {@code file}: {@code done} of {@code total} records handled. */
  default void recordDone(String file, int done, int total) {}

  /** Called once for each record that fails, as soon as it fails. */
  default void failed(Failure failure) {}
}
