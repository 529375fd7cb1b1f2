package org.partita.server.database;

import org.partita.server.engine.PartitionEngine;

/**
 * The bounds every transaction of a database runs under (docs/sql.md,
 * "Bounds on one statement"): a time limit for the whole transaction (a
 * procedure's whole run, or one ad-hoc statement) and a per-statement bound
 * on intermediate results. A call may bring its own time limit
 * ({@code Invocation.timeout_millis}), shorter or longer than the default, up
 * to {@link #MAX_TIMEOUT_MILLIS}. Read-only and read-write work share the
 * limit: a long write blocks its partition exactly as a long read does, and
 * its rollback is exact. With a command log a write stopped by its limit or
 * a cancel is recorded as aborted, so that replay skips it
 * (CommitPipeline#aborted); replay itself runs under no limit. Immutable.
 *
 * @param timeoutMillis the time limit of a call that names none (0 = none)
 * @param memoryBytes the per-statement bound on intermediate results, per engine (0 = unbounded)
 */
public record QueryLimits(int timeoutMillis, long memoryBytes) {
  /** The default time limit: 10 s. */
  public static final int DEFAULT_TIMEOUT_MILLIS = 10_000;
  /** The longest time limit a server or a call may set: 1 hour. */
  public static final int MAX_TIMEOUT_MILLIS = 3_600_000;
  /** The server's default limits: 10 s and the engine's default memory bound (1 GiB). */
  public static final QueryLimits DEFAULT =
      new QueryLimits(DEFAULT_TIMEOUT_MILLIS, PartitionEngine.DEFAULT_QUERY_MEMORY_BYTES);
  /**
   * What an embedded {@link Database} opened without limits uses: no time
   * limit, the engine's default memory bound.
   */
  public static final QueryLimits EMBEDDED = new QueryLimits(0, PartitionEngine.DEFAULT_QUERY_MEMORY_BYTES);

  /** The least per-statement memory bound a machine's default gets: 64 MiB. */
  static final long MIN_MACHINE_MEMORY_BYTES = 64L << 20;

  /**
   * The default memory bound of a server with {@code sites} partitions on a
   * machine of {@code physicalBytes} memory: a quarter of the memory shared
   * by every engine that may run a statement at once (each site and the
   * coordinator), at least 64 MiB. On a 24 GiB machine with 2 sites: 2 GiB.
   */
  public static long machineMemoryBytes(long physicalBytes, int sites) {
    return Math.max(MIN_MACHINE_MEMORY_BYTES, physicalBytes / 4 / (sites + 1));
  }

  /** This machine's physical memory in bytes (the JVM's view), or 0 when unknown. */
  public static long physicalMemoryBytes() {
    return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os ? os.getTotalMemorySize() : 0;
  }

  public QueryLimits {
    if (timeoutMillis < 0 || timeoutMillis > MAX_TIMEOUT_MILLIS) {
      throw new IllegalArgumentException("query timeout must be between 0 (none) and " + MAX_TIMEOUT_MILLIS
          + " ms (1 h), got " + timeoutMillis + " ms");
    }
    if (memoryBytes < 0) {
      throw new IllegalArgumentException("query memory must be 0 (unbounded) or positive, got " + memoryBytes);
    }
  }

  /**
   * The time limit of a call that asked for {@code requestedMillis} (0 = the
   * default); the caller checked it with {@link #checkRequested}.
   */
  int timeoutFor(int requestedMillis) {
    return requestedMillis == 0 ? timeoutMillis : requestedMillis;
  }

  /**
   * Returns null iff {@code requestedMillis} (a call's timeout_millis, an
   * unsigned 32-bit value read as an int) is a time limit a call may ask
   * for; otherwise the message saying why not.
   */
  static String checkRequested(int requestedMillis) {
    if (requestedMillis >= 0 && requestedMillis <= MAX_TIMEOUT_MILLIS) {
      return null;
    }
    return "the call's timeout of " + Integer.toUnsignedString(requestedMillis) + " ms is over the longest allowed, "
        + MAX_TIMEOUT_MILLIS + " ms (1 h)";
  }
}
