package org.partita.server.host;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import java.util.zip.CRC32C;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.database.Database;
import org.partita.server.txn.ImmediateCommitPipeline;
import org.partita.server.database.LogReplay;
import org.partita.server.durability.CommandLog;
import org.partita.server.durability.CommandLogMode;
import org.partita.server.durability.CommandLogOptions;
import org.partita.server.durability.CommandLogRecovery;
import org.partita.server.durability.CrashPoint;
import org.partita.server.durability.DiskFailure;
import org.partita.server.durability.LogCorruptException;
import org.partita.server.durability.LogTruncation;
import org.partita.server.durability.ProcedureClasses;
import org.partita.server.durability.SwitchablePipeline;
import org.partita.server.txn.TxnId;

/**
 * Opens a host's database with its durability (docs/durability.md): with
 * the command log off, an empty database, said loudly; otherwise the
 * database in a new epoch, the log in {@code --data-dir} replayed into it,
 * then a command log that continues it. Used once, at start.
 */
final class DurableStart {
  private static final Logger LOG = Logger.getLogger(DurableStart.class.getName());
  private static final long PROGRESS_EVERY = 1_000_000;

  /** The opened database and its log (null when off). */
  record Opened(Database database, CommandLog log) {}

  private DurableStart() {}

  static Opened open(ServerOptions options, CompiledCatalog catalog) throws StartupException, InterruptedException {
    final CommandLogOptions logOptions = options.commandLog();
    if (logOptions.mode() == CommandLogMode.OFF) {
      refuseExistingLog(options.dataDir());
      LOG.warning("COMMAND LOG OFF: nothing is written to disk; every row is lost when the server stops"
          + " (start with --data-dir DIR for a command log)");
      return new Opened(Database.open(catalog, options.sites(), options.siteQueueCapacity(),
          Database.DEFAULT_COORDINATOR_CAPACITY, ImmediateCommitPipeline.INSTANCE, options.queryLimits()), null);
    }
    final Path dataDir = options.dataDir();
    final int fingerprint = fingerprint(catalog);
    final long epoch;
    try {
      epoch = CommandLogRecovery.lastEpoch(dataDir) + 1;
    } catch (IOException e) {
      throw new StartupException("cannot read the command log in " + dataDir + ": " + e.getMessage(), e);
    }
    final SwitchablePipeline pipeline = new SwitchablePipeline();
    final SnapshotRecovery.Choice snapshot = SnapshotRecovery.choose(dataDir, catalog, options.sites());
    final Database database = Database.open(snapshot.catalog(catalog), options.sites(), options.siteQueueCapacity(),
        Database.DEFAULT_COORDINATOR_CAPACITY, pipeline, options.queryLimits(), epoch);
    try {
      final SnapshotRecovery.Loaded loaded = SnapshotRecovery.load(database, snapshot);
      final long firstSegment = checkTruncation(dataDir, loaded);
      final CommandLogRecovery.Result recovered = replay(database, dataDir, options.sites(), fingerprint,
          loaded.cuts(), firstSegment);
      CrashPoint.reach("recovery.replay-done");
      final CommandLog log = CommandLog.open(dataDir, logOptions, epoch, options.sites(), fingerprint,
          recovered.nextSegment(), DiskFailure.HALT);
      pipeline.switchTo(log);
      LOG.info("command log " + logOptions.mode() + " in " + dataDir + " (epoch " + epoch
          + (logOptions.mode() == CommandLogMode.ASYNC ? ", written every " + logOptions.intervalMillis()
          + " ms, writes wait when the disk is " + logOptions.maxLagMillis() + " ms behind" : "") + ")");
      return new Opened(database, log);
    } catch (StartupException | RuntimeException e) {
      database.close();
      throw e;
    } catch (IOException e) {
      database.close();
      throw new StartupException("command log in " + dataDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * The procedure classes to compile the schema against
   * (docs/durability.md, "Procedure classes"): without a log,
   * {@code --classes}; with one, the copy stored in the data directory when
   * its log has transactions (a logged call replays with the code it ran
   * with; {@code --classes} may then be left out, and classes that differ
   * are refused), else {@code --classes}, which is stored first.
   */
  static List<Path> procedureClasses(ServerOptions options) throws StartupException {
    final Path dataDir = options.dataDir();
    if (options.commandLog().mode() == CommandLogMode.OFF || dataDir == null) {
      return options.classes();
    }
    try {
      final ProcedureClasses.ClassSet given = ProcedureClasses.read(options.classes());
      final String stored = ProcedureClasses.currentId(dataDir);
      if (stored == null || !CommandLogRecovery.exists(dataDir)) {
        ProcedureClasses.record(dataDir, given);
        return options.classes();
      }
      final Path jar = ProcedureClasses.jar(dataDir, stored);
      if (!java.nio.file.Files.exists(jar)) {
        throw new StartupException(dataDir.resolve("classes") + " names procedure classes " + stored + " but " + jar
            + " is missing: the command log cannot be replayed with the code it ran with", null);
      }
      if (!options.classes().isEmpty() && !given.id().equals(stored)) {
        throw new StartupException("the procedure classes of --classes (" + given.id() + ") differ from those the"
            + " command log in " + dataDir + " was written with (" + stored + ", kept as " + jar + "): logged calls"
            + " must replay with the code they ran with; start with the same classes, or without --classes to use"
            + " the kept copy. To change the classes: @SnapshotSave PATH, start a server with the new classes on an"
            + " empty --data-dir, and @SnapshotRestore PATH into it (docs/durability.md, \"Procedure classes\")",
            null);
      }
      LOG.info("procedure classes: " + jar + " (the classes the command log was written with)");
      return List.of(jar);
    } catch (java.io.IOException | RuntimeException e) {
      throw new StartupException("cannot read or keep the procedure classes for " + dataDir + ": " + e.getMessage(),
          e);
    }
  }

  /** Off on a data directory that holds a log would fork history: the log's rows would be missing. */
  private static void refuseExistingLog(Path dataDir) throws StartupException {
    try {
      if (dataDir != null && CommandLogRecovery.exists(dataDir)) {
        throw new StartupException(dataDir + " holds a command log: start with --command-log sync or async to"
            + " recover it (or move it away to start empty)", null);
      }
    } catch (IOException e) {
      throw new StartupException("cannot read " + dataDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * The segment the log begins at: 1, or after a truncation the mark's,
   * provided the loaded snapshot holds everything before it (finishing a
   * truncation a crash interrupted); else recovery refuses to start.
   */
  private static long checkTruncation(Path dataDir, SnapshotRecovery.Loaded loaded)
      throws StartupException, IOException {
    final LogTruncation.Mark mark = LogTruncation.readMark(dataDir);
    if (mark == null) {
      return 1;
    }
    if (mark.oldestSnapshot() != null
        && (loaded.name() == null || loaded.name().compareTo(mark.oldestSnapshot()) < 0)) {
      throw new StartupException("a snapshot was restored into the database in " + dataDir + ", and recovery must"
          + " start from " + dataDir.resolve("snapshots").resolve(mark.oldestSnapshot()) + " (the restored state) or"
          + " a newer snapshot, but none of them is complete and intact: " + (loaded.passedOver().isEmpty()
          ? "there is none" : String.join("; ", loaded.passedOver())) + ". Put back an intact copy of that snapshot's"
          + " directory, or start from an empty --data-dir", null);
    }
    if (!LogTruncation.covers(loaded.cuts(), mark.cut())) {
      throw new StartupException("the command log in " + dataDir + " begins at segment " + mark.firstSegment()
          + " (the segments before it were deleted because a snapshot held their records), but no complete, intact"
          + " snapshot taken with this schema holds them: " + (loaded.passedOver().isEmpty() ? "there is none"
          : String.join("; ", loaded.passedOver())) + ". Put back an intact copy of that snapshot's directory"
          + " under " + dataDir.resolve("snapshots") + ", or start from an empty --data-dir", null);
    }
    LogTruncation.finish(dataDir, mark);
    return mark.firstSegment();
  }

  private static CommandLogRecovery.Result replay(Database database, Path dataDir, int sites, int fingerprint,
      List<TxnId> snapshotCuts, long firstSegment) throws StartupException, IOException {
    final long begin = System.nanoTime();
    final LogReplay replay = database.replayer();
    if (snapshotCuts != null) {
      replay.skipThrough(snapshotCuts);
    }
    final CommandLogRecovery.Result result;
    try {
      result = CommandLogRecovery.read(dataDir, sites, fingerprint, firstSegment, record -> {
        replay.replay(record);
        CrashPoint.reach("recovery.replayed");
        if (replay.replayed() % PROGRESS_EVERY == 0 && replay.replayed() > 0) {
          LOG.info("recovery: " + replay.replayed() + " transaction(s) replayed");
        }
      });
    } catch (LogCorruptException e) {
      replay.finish();
      throw new StartupException(e.getMessage(), e);
    }
    final List<RuntimeException> failures = replay.finish();
    if (!failures.isEmpty()) {
      throw new StartupException("the command log in " + dataDir + " does not replay against this schema ("
          + failures.size() + " problem(s)); the first: " + failures.get(0).getMessage(), failures.get(0));
    }
    for (TxnId unfinished : replay.unfinished()) {
      LOG.info("recovery: multi-partition transaction " + unfinished + " was still running when the host stopped;"
          + " it never committed and is not replayed");
    }
    if (result.records() > 0 || result.segments() > 0) {
      LOG.info("recovery: replayed " + replay.replayed() + " transaction(s) (" + replay.multiPartition()
          + " multi-partition; " + replay.skipped() + " record(s) skipped as in the snapshot) from " + result.records() + " record(s) in " + result.segments() + " segment(s) in "
          + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin) + " ms");
    }
    return result;
  }

  /** The starting schema's fingerprint: CRC32C of its engine catalog. */
  static int fingerprint(CompiledCatalog catalog) {
    final CRC32C crc = new CRC32C();
    crc.update(catalog.engineCatalog().toByteArray());
    return (int) crc.getValue();
  }
}
