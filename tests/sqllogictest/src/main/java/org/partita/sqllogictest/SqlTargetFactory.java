package org.partita.sqllogictest;

/**
 * Creates {@link SqlTarget}s; the command line picks a factory by {@link #name()} with {@code
 * --target}. Factories are found with {@link java.util.ServiceLoader}: an implementation lists its
 * class name in {@code META-INF/services/org.partita.sqllogictest.SqlTargetFactory} and has a public
 * no-argument constructor.
 */
public interface SqlTargetFactory {

  /** The name {@code --target} selects, e.g. {@code partita}; unique among registered factories. */
  String name();

  /** One line saying what the target is, for {@code --list-targets}. */
  default String description() {
    return "";
  }

  /**
   * Returns a new target with an empty database, owned by the caller (who closes it). Throws when
   * the database cannot start (e.g. its native library is missing); the run then stops.
   */
  SqlTarget create(TargetOptions options);
}
