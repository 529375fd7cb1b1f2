package org.partita.server.database;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.partita.proto.TableStats;
import org.partita.proto.TableStatsList;
import org.partita.server.catalog.Schema;
import org.partita.server.catalog.TableDef;
import org.partita.server.planner.TableStatistics;

/**
 * The row counts ad-hoc SQL is planned with (docs/sql.md, "How joins run"):
 * each site publishes its engine's table statistics now and then
 * ({@link Site#publishedStats}); this class adds them up — a partitioned
 * table's rows over every partition, a replicated table's from one copy.
 *
 * <p>A snapshot's counts are the latest published, but its
 * {@link Snapshot#epoch} stays the same until some table's count moves to
 * another power of two, so that the plan cache ({@link AdHocPlans}) keeps a
 * plan while the tables it orders stay about the same size and plans again
 * when one doubles or halves.
 *
 * <p>Thread-safe: {@link #current} may be called from any thread.
 */
final class RowCounts {
  /** Counts and the epoch they belong to. Immutable. */
  record Snapshot(TableStatistics statistics, long epoch, Map<String, Integer> magnitudes) {}

  /** No counts: the planner's default for every table. */
  static final Snapshot NONE = new Snapshot(TableStatistics.UNKNOWN, 0, Map.of());

  private final List<Site> sites;
  private Snapshot snapshot = NONE;
  private long seenVersions = -1;

  /** @param sites the database's sites (the list may fill until the database opens; read-only after) */
  RowCounts(List<Site> sites) {
    this.sites = sites;
  }

  /** The counts as of the sites' last published statistics, summed for {@code schema}'s tables. */
  synchronized Snapshot current(Schema schema) {
    long versions = 0;
    for (Site site : sites) {
      versions += site.statsVersion();
    }
    if (versions == seenVersions) {
      return snapshot;
    }
    seenVersions = versions;
    final Map<String, Long> rows = sum(schema);
    final Map<String, Integer> magnitudes = new HashMap<>();
    rows.forEach((table, count) -> magnitudes.put(table, 64 - Long.numberOfLeadingZeros(count)));
    // The counts are always the latest; only the epoch (what cached plans are keyed by) waits for a new size.
    final long epoch = magnitudes.equals(snapshot.magnitudes()) ? snapshot.epoch() : snapshot.epoch() + 1;
    snapshot = new Snapshot(TableStatistics.of(rows), epoch, Map.copyOf(magnitudes));
    return snapshot;
  }

  private Map<String, Long> sum(Schema schema) {
    final Map<String, Long> rows = new HashMap<>();
    for (Site site : sites) {
      final TableStatsList stats = site.publishedStats();
      if (stats == null) {
        continue;
      }
      for (TableStats t : stats.getTablesList()) {
        final TableDef def = schema.table(t.getName()).orElse(null);
        if (def != null && def.isReplicated()) {
          rows.merge(t.getName(), t.getRowCount(), Math::max);
        } else {
          rows.merge(t.getName(), t.getRowCount(), Long::sum);
        }
      }
    }
    return rows;
  }
}
