package org.partita.server.sysproc;

import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;

/**
 * The state of the host's latest snapshot, as {@code @SnapshotStatus} and
 * {@code @Statistics SNAPSHOT} report it (docs/system-procedures.md).
 *
 * @param state NONE (none taken since start), IN_PROGRESS, DONE or FAILED
 * @param path the snapshot's directory ("" for NONE)
 * @param bytes bytes written (so far, while in progress)
 * @param durationMillis from the cut to completion (so far, while in progress)
 * @param cut the cut, "p0=epoch:seq,p1=..." ("" until fixed)
 * @param error why it failed ("" otherwise)
 * @param completed snapshots completed since the host started
 * @param longestChunkMicros the longest time one partition spent making one chunk between two of its
 *     transactions (the longest pause the snapshot put on a partition)
 * @param longestChunkCpuMicros the most CPU time a site thread spent making one chunk (the pause less the
 *     time the thread was not running: the figure that does not depend on the machine's load)
 * @param keptBytes while in progress, bytes of row images the partitions keep for it (rows changed before the scan
 *     reached them, as of the cut); 0 otherwise
 */
public record SnapshotFigures(String state, String path, long bytes, long durationMillis, String cut, String error,
    long completed, long longestChunkMicros, long longestChunkCpuMicros, long keptBytes) {
  /**
   * The figures of the first row of {@code table} (as {@link #toTable}
   * made it: another host's answer to a forwarded {@code @SnapshotSave}).
   *
   * @throws IllegalArgumentException when the table has no row
   */
  public static SnapshotFigures fromTable(ResultTable table) {
    if (!table.advanceRow()) {
      throw new IllegalArgumentException("a snapshot answer without a row");
    }
    return new SnapshotFigures(table.getString(0), table.getString(1), table.getLong(2), table.getLong(3),
        table.getString(5), table.getString(6), table.getLong(7), table.getLong(8), table.getLong(9),
        table.getLong(10));
  }

  /** A host that has taken no snapshot. */
  public static final SnapshotFigures NONE = new SnapshotFigures("NONE", "", 0, 0, "", "", 0, 0, 0, 0);

  /**
   * One row: STATE, PATH, BYTES, DURATION_MILLIS, MB_PER_SECOND, CUT, ERROR, COMPLETED, LONGEST_CHUNK_MICROS,
   * LONGEST_CHUNK_CPU_MICROS, KEPT_BYTES.
   */
  /** The figures as the one-row table {@code @SnapshotSave} and {@code @SnapshotStatus} answer. */
  public ResultTable toTable() {
    final double seconds = durationMillis / 1000.0;
    return new ResultTableBuilder()
        .column("STATE", ValueType.VARCHAR)
        .column("PATH", ValueType.VARCHAR)
        .column("BYTES", ValueType.BIGINT)
        .column("DURATION_MILLIS", ValueType.BIGINT)
        .column("MB_PER_SECOND", ValueType.FLOAT)
        .column("CUT", ValueType.VARCHAR)
        .column("ERROR", ValueType.VARCHAR)
        .column("COMPLETED", ValueType.BIGINT)
        .column("LONGEST_CHUNK_MICROS", ValueType.BIGINT)
        .column("LONGEST_CHUNK_CPU_MICROS", ValueType.BIGINT)
        .column("KEPT_BYTES", ValueType.BIGINT)
        .row(state, path, bytes, durationMillis, seconds > 0 ? bytes / 1e6 / seconds : 0.0, cut, error, completed,
            longestChunkMicros, longestChunkCpuMicros, keptBytes)
        .build();
  }
}
