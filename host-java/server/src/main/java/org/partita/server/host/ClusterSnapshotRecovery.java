package org.partita.server.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.partita.proto.cluster.VoidTail;
import org.partita.server.database.Database;
import org.partita.server.durability.SnapshotCorruptException;
import org.partita.server.durability.SnapshotManifest;
import org.partita.server.durability.SnapshotStore;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.TxnId;

/**
 * The snapshot step of a whole-cluster restart (docs/durability.md, "On a
 * cluster"): before its log is replayed, each copy the reconciled map gives
 * this host is loaded from the newest of the host's snapshot parts that
 * holds it intact, was taken with this catalog, and whose cut for it the
 * reconciliation kept (a cut after the partition's reconciled cut would hold
 * transactions the other copies never logged, so that copy falls back to an
 * older part, or to its whole log). The log replay then skips each loaded
 * copy's records up to its cut. Copies choose independently: parts of
 * different ages give the same state once each replays its log to the same
 * reconciled cut.
 *
 * <p>Stateless; recovery's thread.
 */
final class ClusterSnapshotRecovery {
  private static final Logger LOG = Logger.getLogger(ClusterSnapshotRecovery.class.getName());

  private ClusterSnapshotRecovery() {}

  /**
   * The part each copy {@code map} gives host {@code hostId} starts from: by
   * partition, the newest of the host's parts that holds the copy intact,
   * was taken with {@code engineCatalog}, and whose cut for it no recovery
   * dropped ({@code voids}); null parts and cuts where there is none.
   */
  record Choice(Path[] parts, TxnId[] cuts) {}

  /** See {@link Choice}. Each part passed over is logged with the reason. */
  static Choice choose(Path dataDir, byte[] engineCatalog, PartitionMap map, int hostId, List<VoidTail> voids)
      throws StartupException {
    final Path[] parts = new Path[map.partitionCount()];
    final TxnId[] cuts = new TxnId[map.partitionCount()];
    final List<Path> candidates;
    try {
      candidates = SnapshotStore.completeSnapshots(SnapshotStore.directory(dataDir));
    } catch (IOException e) {
      throw new StartupException("cannot read the snapshots in " + SnapshotStore.directory(dataDir) + ": "
          + e.getMessage(), e);
    }
    for (Path snapshot : candidates) {
      final SnapshotManifest manifest = usable(snapshot, engineCatalog, map.partitionCount());
      if (manifest == null) {
        continue;
      }
      for (int p : manifest.copies()) {
        final TxnId cut = manifest.cuts().get(p);
        if (cuts[p] != null || cut == null || !map.replicas(p).replicaHosts().contains(hostId)) {
          continue;
        }
        if (ClusterRecovery.dropped(voids, cut)) {
          LOG.info("recovery: " + snapshot.getFileName() + " is not loaded for partition " + p + ": its cut " + cut
              + " is after the partition's reconciled cut");
          continue;
        }
        parts[p] = snapshot;
        cuts[p] = cut;
      }
    }
    return new Choice(parts, cuts);
  }

  /**
   * Loads what it can into {@code database} (the parts {@link #choose}
   * picks); returns each partition's loaded cut (null: not loaded, replay
   * its whole log).
   */
  static TxnId[] load(Database database, Path dataDir, PartitionMap map, int hostId, List<VoidTail> voids)
      throws StartupException {
    final Choice choice = choose(dataDir, database.catalog().engineCatalog().toByteArray(), map, hostId, voids);
    final Map<Path, List<Integer>> byPart = new LinkedHashMap<>();
    for (int p = 0; p < map.partitionCount(); p++) {
      if (choice.parts()[p] != null) {
        byPart.computeIfAbsent(choice.parts()[p], k -> new ArrayList<>()).add(p);
      }
    }
    for (Map.Entry<Path, List<Integer>> part : byPart.entrySet()) {
      for (int p : part.getValue()) {
        loadCopy(database, part.getKey(), p, choice.cuts()[p]);
      }
      LOG.info("recovery: loaded snapshot " + part.getKey().getFileName() + " into this host's copies of partitions "
          + part.getValue() + " (cuts " + describe(choice.cuts(), part.getValue()) + "); their logs replay after"
          + " those cuts");
    }
    return choice.cuts();
  }

  /** The manifest of {@code snapshot} when it is intact, of this catalog and this partition count; else null. */
  private static SnapshotManifest usable(Path snapshot, byte[] engineCatalog, int partitions) {
    try {
      final SnapshotManifest manifest = SnapshotManifest.read(snapshot);
      SnapshotStore.verify(snapshot, manifest);
      if (manifest.cuts().size() != partitions) {
        return passOver(snapshot, "it has " + manifest.cuts().size() + " partition(s), this cluster " + partitions);
      }
      if (!Arrays.equals(engineCatalog, Files.readAllBytes(snapshot.resolve(SnapshotManifest.CATALOG_FILE)))) {
        return passOver(snapshot, "it was taken with another catalog");
      }
      return manifest;
    } catch (IOException | SnapshotCorruptException e) {
      return passOver(snapshot, e.getMessage());
    }
  }

  private static SnapshotManifest passOver(Path snapshot, String why) {
    LOG.warning("recovery: snapshot " + snapshot + " is passed over: " + why);
    return null;
  }

  private static void loadCopy(Database database, Path snapshot, int partition, TxnId cut) throws StartupException {
    try (FileSnapshotSource source = FileSnapshotSource.forRecovery(snapshot, SnapshotManifest.read(snapshot),
        partition)) {
      database.loadCopySnapshot(partition, source, cut);
    } catch (IOException | SnapshotCorruptException | RuntimeException e) {
      throw new StartupException("loading partition " + partition + " from snapshot " + snapshot + " failed: "
          + e.getMessage(), e);
    }
  }

  private static String describe(TxnId[] cuts, List<Integer> partitions) {
    final List<String> out = new ArrayList<>();
    for (int p : partitions) {
      out.add(p + ": " + cuts[p].epoch() + ":" + cuts[p].sequence());
    }
    return String.join(", ", out);
  }
}
