package org.partita.server.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.database.Database;
import org.partita.server.database.SnapshotSource;
import org.partita.server.durability.CrashPoint;
import org.partita.server.durability.SnapshotCorruptException;
import org.partita.server.durability.SnapshotManifest;
import org.partita.server.durability.SnapshotStore;
import org.partita.server.txn.TxnId;

/**
 * Recovery's first step with a data directory (docs/durability.md,
 * "Recovery"): removes snapshots left without a manifest, then loads the
 * newest complete snapshot that is intact and fits this start (same number
 * of partitions, taken with the starting schema) into the empty database,
 * every partition in parallel. A snapshot that is damaged or does not fit
 * is passed over, with a log line, for the one before it; the command log
 * (never truncated past a snapshot that could be needed) then covers what
 * the snapshot would have.
 */
final class SnapshotRecovery {
  private static final Logger LOG = Logger.getLogger(SnapshotRecovery.class.getName());

  /**
   * What recovery loaded: the cuts by partition (null when no snapshot was
   * loaded) and, for each snapshot passed over, why.
   */
  record Loaded(List<TxnId> cuts, List<String> passedOver) {}

  private SnapshotRecovery() {}

  /**
   * Loads the newest usable snapshot into {@code database}. Returns its
   * cuts by partition (the log replay skips what they hold), or null when
   * none was loaded.
   *
   * @throws StartupException when a snapshot that passed every check fails to load (the database is then unusable)
   */
  static Loaded load(Database database, Path dataDir, CompiledCatalog catalog) throws StartupException {
    final Path snapshots = SnapshotStore.directory(dataDir);
    final List<Path> candidates;
    try {
      SnapshotStore.removeIncomplete(snapshots);
      candidates = SnapshotStore.completeSnapshots(snapshots);
    } catch (IOException e) {
      throw new StartupException("cannot read the snapshots in " + snapshots + ": " + e.getMessage(), e);
    }
    final List<String> passedOver = new ArrayList<>();
    for (Path snapshot : candidates) {
      final SnapshotManifest manifest = usable(snapshot, database, catalog, passedOver);
      if (manifest != null) {
        loadInto(database, snapshot, manifest);
        return new Loaded(manifest.cuts(), passedOver);
      }
    }
    return new Loaded(null, passedOver);
  }

  /** The manifest of {@code snapshot} when it is intact and fits this start; else null, said in the log. */
  private static SnapshotManifest usable(Path snapshot, Database database, CompiledCatalog catalog,
      List<String> passedOver) {
    try {
      final SnapshotManifest manifest = SnapshotManifest.read(snapshot);
      SnapshotStore.verify(snapshot, manifest);
      if (manifest.cuts().size() != database.partitionCount()) {
        return passOver(passedOver, snapshot + " has " + manifest.cuts().size() + " partition(s), this start "
            + database.partitionCount());
      }
      final byte[] taken = Files.readAllBytes(snapshot.resolve(SnapshotManifest.CATALOG_FILE));
      if (manifest.catalogVersion() != 1 || !Arrays.equals(taken, catalog.engineCatalog().toByteArray())) {
        return passOver(passedOver, snapshot + " was taken with catalog version " + manifest.catalogVersion()
            + ", not the starting schema (its schema changes are replayed from the log instead)");
      }
      return manifest;
    } catch (IOException | SnapshotCorruptException e) {
      return passOver(passedOver, "snapshot " + snapshot + " cannot be used: " + e.getMessage());
    }
  }

  private static SnapshotManifest passOver(List<String> passedOver, String why) {
    LOG.warning("recovery: " + why + "; not using it (trying the one before it, then the command log)");
    passedOver.add(why);
    return null;
  }

  private static void loadInto(Database database, Path snapshot, SnapshotManifest manifest) throws StartupException {
    LOG.info("recovery: loading snapshot " + snapshot + " (" + manifest.bytes() + " bytes, "
        + manifest.cuts().size() + " partition(s) in parallel)");
    final long begin = System.nanoTime();
    final List<SnapshotStore.ChunkReader> readers = new ArrayList<>();
    try {
      final List<SnapshotSource> sources = new ArrayList<>();
      for (int p = 0; p < manifest.cuts().size(); p++) {
        final SnapshotStore.ChunkReader reader =
            new SnapshotStore.ChunkReader(snapshot.resolve(SnapshotManifest.partitionFile(p)));
        readers.add(reader);
        sources.add(reader::next);
      }
      final long chunks = database.loadSnapshot(sources, manifest.cuts());
      final long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
      LOG.info("recovery: snapshot loaded: " + chunks + " chunk(s) in " + millis + " ms ("
          + String.format("%.1f", manifest.bytes() / 1e3 / millis) + " MB/s); indexes and views rebuilt");
      CrashPoint.reach("recovery.snapshot-loaded");
    } catch (IOException | SnapshotCorruptException | RuntimeException e) {
      throw new StartupException("recovery: snapshot " + snapshot + " passed its checks but failed to load: "
          + e.getMessage() + " (move it out of " + snapshot.getParent() + " to recover from the one before it and"
          + " the command log)", e);
    } finally {
      for (SnapshotStore.ChunkReader r : readers) {
        try {
          r.close();
        } catch (IOException ignored) {
          // Read-only.
        }
      }
    }
  }
}
