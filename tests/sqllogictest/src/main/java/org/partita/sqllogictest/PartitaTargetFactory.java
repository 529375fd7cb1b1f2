package org.partita.sqllogictest;

/**
 * The target {@code partita}: Partita's in-process database. Replicated mode
 * runs one partition with every table replicated; partitioned mode runs four
 * partitions and partitions every table on its first column right after its
 * CREATE TABLE.
 */
public final class PartitaTargetFactory implements SqlTargetFactory {
  public static final int PARTITIONS_WHEN_PARTITIONED = 4;

  @Override
  public String name() {
    return "partita";
  }

  @Override
  public String description() {
    return "Partita in process (1 partition, or 4 with --partitioned)";
  }

  @Override
  public SqlTarget create(TargetOptions options) {
    return new PartitaTarget(options.partitioned() ? PARTITIONS_WHEN_PARTITIONED : 1, options.partitioned());
  }
}
