package org.partita.server.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.SourceFile;
import org.partita.server.compiler.ddl.DdlException;
import org.partita.server.database.CatalogHistory;
import org.partita.server.database.Database;
import org.partita.server.database.SnapshotSource;
import org.partita.server.durability.CrashPoint;
import org.partita.server.durability.SchemaChangesFile;
import org.partita.server.durability.SnapshotCorruptException;
import org.partita.server.durability.SnapshotManifest;
import org.partita.server.durability.SnapshotStore;
import org.partita.server.txn.TxnId;

/**
 * Recovery's first step with a data directory (docs/durability.md,
 * "Recovery"): removes snapshots left without a manifest, then chooses the
 * newest complete snapshot that is intact and fits this start (same number
 * of partitions; its catalog rebuilt from the starting schema and the
 * schema changes it carries, byte for byte the catalog it was taken with),
 * before the database opens at that catalog; then loads it into the empty
 * database, every partition in parallel. A snapshot that is damaged or does
 * not fit is passed over, with a log line, for the one before it; the
 * command log (never truncated past a snapshot that could be needed) then
 * covers what the snapshot would have.
 */
final class SnapshotRecovery {
  private static final Logger LOG = Logger.getLogger(SnapshotRecovery.class.getName());

  /** A snapshot chosen for recovery, with the catalog it was taken with (rebuilt). */
  record Chosen(Path snapshot, SnapshotManifest manifest, CatalogHistory catalog) {}

  /**
   * The snapshot to load (null when none qualifies) and, for each snapshot
   * passed over, why.
   */
  record Choice(Chosen chosen, List<String> passedOver) {
    /** The catalog the database opens with: the chosen snapshot's, else the starting schema. */
    CatalogHistory catalog(CompiledCatalog starting) {
      return chosen == null ? CatalogHistory.initial(starting) : chosen.catalog();
    }
  }

  /**
   * What recovery loaded: the snapshot's directory name and cuts by
   * partition (both null when no snapshot was loaded) and, for each
   * snapshot passed over, why.
   */
  record Loaded(String name, List<TxnId> cuts, List<String> passedOver) {}

  private SnapshotRecovery() {}

  /**
   * Chooses the newest usable snapshot of {@code dataDir} for a start with
   * {@code partitions} partitions and the starting schema {@code starting}.
   */
  static Choice choose(Path dataDir, CompiledCatalog starting, int partitions) throws StartupException {
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
      final Chosen chosen = usable(snapshot, partitions, starting, passedOver);
      if (chosen != null) {
        return new Choice(chosen, passedOver);
      }
    }
    return new Choice(null, passedOver);
  }

  /**
   * Loads the chosen snapshot into {@code database}, opened empty at its
   * catalog. Returns its cuts by partition (the log replay skips what they
   * hold; null when none was chosen).
   *
   * @throws StartupException when a snapshot that passed every check fails to load (the database is then unusable)
   */
  static Loaded load(Database database, Choice choice) throws StartupException {
    if (choice.chosen() == null) {
      return new Loaded(null, null, choice.passedOver());
    }
    loadInto(database, choice.chosen().snapshot(), choice.chosen().manifest());
    return new Loaded(choice.chosen().snapshot().getFileName().toString(), choice.chosen().manifest().cuts(),
        choice.passedOver());
  }

  /** {@code snapshot} with its catalog when it is intact and fits this start; else null, said in the log. */
  private static Chosen usable(Path snapshot, int partitions, CompiledCatalog starting, List<String> passedOver) {
    try {
      final SnapshotManifest manifest = SnapshotManifest.read(snapshot);
      SnapshotStore.verify(snapshot, manifest);
      if (!manifest.holdsEveryPartition()) {
        return passOver(passedOver, snapshot + " holds the copies of partitions " + manifest.copies()
            + " only (a cluster host's part of a snapshot across hosts)");
      }
      if (manifest.cuts().size() != partitions) {
        return passOver(passedOver, snapshot + " has " + manifest.cuts().size() + " partition(s), this start "
            + partitions);
      }
      if (!manifest.rebuildsCatalog()) {
        return passOver(passedOver, snapshot + " was taken with catalog version " + manifest.catalogVersion()
            + " by a version of Partita that did not keep schema changes in snapshots (its schema changes are"
            + " replayed from the log instead)");
      }
      final List<String> changes = manifest.catalogVersion() == 1 ? List.of()
          : SchemaChangesFile.read(snapshot.resolve(SchemaChangesFile.NAME));
      if (changes.size() != manifest.catalogVersion() - 1) {
        return passOver(passedOver, snapshot + " is at catalog version " + manifest.catalogVersion() + " but holds "
            + changes.size() + " schema change(s)");
      }
      final CompiledCatalog rebuilt = rebuild(starting, changes);
      final byte[] taken = Files.readAllBytes(snapshot.resolve(SnapshotManifest.CATALOG_FILE));
      if (!Arrays.equals(taken, rebuilt.engineCatalog().toByteArray())) {
        return passOver(passedOver, snapshot + " was taken with another starting schema (the starting schema and"
            + " its " + changes.size() + " schema change(s) do not make the catalog it was taken with)");
      }
      return new Chosen(snapshot, manifest, new CatalogHistory(rebuilt, manifest.catalogVersion(), changes));
    } catch (DdlException e) {
      return passOver(passedOver, snapshot + ": its schema changes do not compile against this starting schema: "
          + e.getMessage());
    } catch (IOException | SnapshotCorruptException e) {
      return passOver(passedOver, "snapshot " + snapshot + " cannot be used: " + e.getMessage());
    }
  }

  /** The catalog {@code changes} make from {@code starting}, as the schema changes made it at run time. */
  private static CompiledCatalog rebuild(CompiledCatalog starting, List<String> changes) throws DdlException {
    CompiledCatalog catalog = starting;
    for (String ddl : changes) {
      catalog = new CatalogCompiler(catalog.classLoader()).apply(catalog, new SourceFile("@AdHoc", ddl));
    }
    return catalog;
  }

  private static Chosen passOver(List<String> passedOver, String why) {
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
        final FileSnapshotSource source = FileSnapshotSource.forRecovery(snapshot, manifest, p);
        readers.add(source.reader());
        sources.add(source);
      }
      final long chunks = database.loadSnapshot(sources, manifest.cuts());
      final long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
      LOG.info("recovery: snapshot loaded: " + chunks + " chunk(s) in " + millis + " ms ("
          + String.format("%.1f", manifest.bytes() / 1e3 / millis) + " MB/s)");
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
