package org.partita.server.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.logging.Logger;
import org.partita.server.durability.DurableFile;
import org.partita.server.durability.LogTruncation;
import org.partita.server.durability.SnapshotCorruptException;
import org.partita.server.durability.SnapshotManifest;
import org.partita.server.durability.SnapshotStore;

/**
 * Which snapshot parts a cluster host keeps, and truncating its command log
 * after them (docs/durability.md, "On a cluster", "Log truncation on a
 * cluster").
 *
 * <p>A part is <em>marked</em> ({@link #EVERY_HOST}) once the coordinator saw
 * every host holding a copy with its part of that snapshot durable. The host
 * keeps the {@link SnapshotService#KEEP} newest marked parts and the
 * {@link SnapshotService#KEEP} newest parts; it removes the others.
 *
 * <p>The log is truncated (by {@link LogTruncation}, as on one host: a
 * prefix of whole segments, never the one being written, the mark first)
 * up to the cuts of the <em>truncation point</em>: the oldest of the
 * {@link SnapshotService#KEEP} newest marked parts. Why that is safe: at a
 * recovery each copy reports at least the cut of its host's newest usable
 * part ({@link ClusterRecovery#scan}); every other host had its part of that
 * snapshot durable, and keeps it unless it has {@link SnapshotService#KEEP}
 * newer marked ones, so no copy reports less than its cut (unless parts are
 * damaged), the reconciled cut is at or after it, the point's part is
 * loadable here, and every record after its cut is still in the log. With
 * two marked parts kept, a damaged newer one still leaves the older to load
 * (and a damaged older one the newer, which every host then holds too). A
 * part complete here but not marked (another host failed its part, or the
 * coordinator stopped before it marked) is never a truncation point: the
 * reconciled cut may fall before it, and recovery would then need the log
 * before it.
 *
 * <p>Stateless; one call at a time (the caller's single thread).
 */
final class ClusterLogTruncation {
  private static final Logger LOG = Logger.getLogger(ClusterLogTruncation.class.getName());
  /** The file in a part's directory saying every host had its part of that snapshot durable. */
  static final String EVERY_HOST = "EVERY-HOST";

  private ClusterLogTruncation() {}

  /** Marks, durably, that every host holding a copy had its part of snapshot {@code part} durable. */
  static void markEveryHost(Path part) throws IOException {
    DurableFile.write(part.resolve(EVERY_HOST),
        "every host holding a copy had its part of this snapshot durable\n".getBytes(StandardCharsets.UTF_8));
  }

  /** Whether {@code part} is marked {@link #EVERY_HOST}. */
  static boolean onEveryHost(Path part) {
    return Files.isRegularFile(part.resolve(EVERY_HOST));
  }

  /**
   * The parts of {@code complete} (this host's complete parts, newest first)
   * kept: the {@link SnapshotService#KEEP} newest, and the
   * {@link SnapshotService#KEEP} newest of those {@code marked} holds for;
   * newest first.
   */
  static List<Path> kept(List<Path> complete, Predicate<Path> marked) {
    final List<Path> out = new ArrayList<>();
    int markedKept = 0;
    for (int i = 0; i < complete.size(); i++) {
      final boolean isMarked = marked.test(complete.get(i));
      if (i < SnapshotService.KEEP || isMarked && markedKept < SnapshotService.KEEP) {
        out.add(complete.get(i));
        markedKept += isMarked ? 1 : 0;
      }
    }
    return out;
  }

  /**
   * The part up to whose cuts the log may be truncated, among
   * {@code complete} (this host's complete parts, newest first), or null:
   * the oldest of the {@link SnapshotService#KEEP} newest that
   * {@code marked} holds for.
   */
  static Path truncationPoint(List<Path> complete, Predicate<Path> marked) {
    Path point = null;
    int seen = 0;
    for (Path part : complete) {
      if (seen < SnapshotService.KEEP && marked.test(part)) {
        point = part;
        seen++;
      }
    }
    return point;
  }

  /** Removes the complete parts under {@code snapshots} that {@link #kept} leaves out. Failures are logged. */
  static void removeBeyondKept(Path snapshots) {
    try {
      final List<Path> complete = SnapshotStore.completeSnapshots(snapshots);
      final List<Path> kept = kept(complete, ClusterLogTruncation::onEveryHost);
      for (Path old : complete) {
        if (!kept.contains(old)) {
          LOG.info("snapshot: removing " + old + " (newer parts are kept, " + SnapshotService.KEEP
              + " of them complete on every host when there are)");
          SnapshotStore.remove(old);
        }
      }
    } catch (IOException e) {
      LOG.warning("snapshot: could not list " + snapshots + " to remove old snapshots: " + e.getMessage());
    }
  }

  /**
   * Truncates {@code dataDir}'s log up to {@link #truncationPoint} of its
   * parts (nothing when there is none); returns the segments deleted.
   * Failures are logged: the log is then kept whole.
   */
  static int truncate(Path dataDir) {
    try {
      final Path point = truncationPoint(SnapshotStore.completeSnapshots(SnapshotStore.directory(dataDir)),
          ClusterLogTruncation::onEveryHost);
      if (point == null) {
        return 0;
      }
      final SnapshotManifest manifest = SnapshotManifest.read(point);
      if (!manifest.rebuildsCatalog()) {
        return 0;
      }
      final int deleted = LogTruncation.truncate(dataDir, manifest.cuts());
      if (deleted > 0) {
        LOG.info("command log: truncated up to snapshot " + point.getFileName() + " (complete on every host)");
      }
      return deleted;
    } catch (IOException | SnapshotCorruptException e) {
      LOG.warning("snapshot: the command log in " + dataDir + " was not truncated: " + e.getMessage());
      return 0;
    }
  }
}
