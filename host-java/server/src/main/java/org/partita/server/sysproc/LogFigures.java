package org.partita.server.sysproc;

/**
 * What {@code @Statistics COMMANDLOG} reports of the host's command log
 * (docs/durability.md): the mode, and figures since the log opened.
 *
 * @param mode SYNC, ASYNC or OFF
 * @param records records written
 * @param bytes bytes written
 * @param syncs fdatasync calls
 * @param largestBatch the most records one sync made durable
 * @param longestSyncNanos the longest fdatasync
 * @param throttledNanos async mode: time writes waited for the disk to catch up
 * @param syncP50Micros median time of one batch's write and fdatasync
 * @param syncP99Micros its 99th percentile
 * @param syncP999Micros its 99.9th percentile
 */
public record LogFigures(String mode, long records, long bytes, long syncs, long largestBatch, long longestSyncNanos,
    long throttledNanos, long syncP50Micros, long syncP99Micros, long syncP999Micros) {
  /** A host without a command log. */
  public static final LogFigures OFF = new LogFigures("OFF", 0, 0, 0, 0, 0, 0, 0, 0, 0);

  /** Records per sync on average (0 before the first sync): the group commit's group size. */
  public double meanBatch() {
    return syncs == 0 ? 0 : (double) records / syncs;
  }
}
