package org.partita.server.durability;

/**
 * How a host keeps its command log.
 *
 * @param mode sync, async or off
 * @param intervalMillis async mode: how often records are written and synced
 * @param maxLagMillis async mode: how far the disk may fall behind before new writes wait
 * @param segmentBytes the size each segment file is preallocated to
 * @param snapshotLogBytes log bytes written since the last snapshot that start an automatic one (0: never)
 */
public record CommandLogOptions(CommandLogMode mode, int intervalMillis, int maxLagMillis, long segmentBytes,
    long snapshotLogBytes) {
  public static final int DEFAULT_INTERVAL_MILLIS = 100;
  public static final int DEFAULT_MAX_LAG_MILLIS = 1000;
  public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;
  /** The smallest segment (room for the header and a few records; tests use small ones). */
  public static final long MIN_SEGMENT_BYTES = 64L << 10;
  /** The largest segment (recovery maps a segment whole). */
  public static final long MAX_SEGMENT_BYTES = 1L << 30;
  /** Log written since the last snapshot that starts the next one, by default (--snapshot-log-size, MB). */
  public static final long DEFAULT_SNAPSHOT_LOG_BYTES = 512L << 20;

  public CommandLogOptions {
    if (intervalMillis < 1 || intervalMillis > 5000) {
      throw new IllegalArgumentException("--log-interval must be 1 to 5000 ms, got " + intervalMillis);
    }
    if (maxLagMillis < 1) {
      throw new IllegalArgumentException("--log-max-lag must be at least 1 ms, got " + maxLagMillis);
    }
    if (segmentBytes < MIN_SEGMENT_BYTES || segmentBytes > MAX_SEGMENT_BYTES) {
      throw new IllegalArgumentException("--log-segment-mb: a segment must hold " + MIN_SEGMENT_BYTES + " to "
          + MAX_SEGMENT_BYTES + " bytes, got " + segmentBytes);
    }
    if (snapshotLogBytes < 0) {
      throw new IllegalArgumentException("--snapshot-log-size must be 0 (never) or positive, got " + snapshotLogBytes);
    }
  }

  /** Options with the default automatic snapshots. */
  public CommandLogOptions(CommandLogMode mode, int intervalMillis, int maxLagMillis, long segmentBytes) {
    this(mode, intervalMillis, maxLagMillis, segmentBytes, DEFAULT_SNAPSHOT_LOG_BYTES);
  }

  /** The defaults for {@code mode}. */
  public static CommandLogOptions of(CommandLogMode mode) {
    return new CommandLogOptions(mode, DEFAULT_INTERVAL_MILLIS, DEFAULT_MAX_LAG_MILLIS, DEFAULT_SEGMENT_BYTES);
  }
}
