package org.partita.server.host;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.partita.proto.cluster.LogTail;
import org.partita.proto.cluster.VoidTail;
import org.partita.proto.txn.WorkItem;
import org.partita.server.database.Database;
import org.partita.server.database.LogReplay;
import org.partita.server.durability.CommandLogRecovery;
import org.partita.server.durability.LogCorruptException;
import org.partita.server.durability.LogTruncation;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * One host's side of a whole-cluster restart (docs/cluster.md, "Durability
 * on a cluster"; docs/durability.md, "On a cluster"), in two passes over
 * the host's command log. {@link #scan} reads it without running anything:
 * for each copy the stopped cluster's map gave this host, the last
 * transaction the log holds (what the host reports to the metadata group),
 * skipping the tails earlier recoveries dropped. {@link #replay} then runs
 * again, on the copies of the reconciled map, every record up to each
 * partition's cut, under the leader's header it was logged with.
 *
 * <p>What a record is: a single-partition call (led or replicated), a read
 * included; a partition's part of a multi-partition transaction as a copy
 * ran it (its engine batches, replayable on that copy alone); a
 * partition's join of a multi-partition transaction, which a leader logs
 * before its part and which recovery on a cluster passes over (the part
 * after it is what ran; a join without a part never committed there); the
 * decision on a part logged prepared, which says whether the part replays
 * ({@link HeldParts}; a part left undecided replays only if reconciliation
 * kept it, {@link CopyTails}); an abort marker, passed over too.
 *
 * <p>Stateless; used once at start, from the starting thread.
 */
final class ClusterRecovery {
  private static final Logger LOG = Logger.getLogger(ClusterRecovery.class.getName());

  /**
   * What the first pass found: the tails to report, the segment the log
   * begins at (after a truncation, the mark's), and the segment the next log
   * begins at.
   */
  record Scan(List<LogTail> tails, long records, long firstSegment, long nextSegment, long lastEpoch) {}

  private ClusterRecovery() {}

  /**
   * The last transaction {@code dataDir}'s log holds for each copy
   * {@code map} gives host {@code hostId} (in partition order; (0, 0) when
   * none), records {@code voids} drops left out, raised to the cut of the
   * part a copy would load ({@link ClusterSnapshotRecovery#choose}: its
   * state up to that cut is on this host's disk, whatever the log kept of
   * it; a truncated log keeps nothing before it). Cuts a torn tail as
   * recovery on one host does; finishes a truncation a crash interrupted,
   * and refuses a truncated log whose deleted records no usable part holds.
   */
  static Scan scan(Path dataDir, int partitions, int fingerprint, byte[] engineCatalog, PartitionMap map,
      int hostId, List<VoidTail> voids) throws StartupException {
    final TxnId[] snapshotCuts = ClusterSnapshotRecovery.choose(dataDir, engineCatalog, map, hostId, voids).cuts();
    final long firstSegment = checkTruncation(dataDir, snapshotCuts, map, hostId);
    final CopyTails copies = new CopyTails(partitions);
    final CommandLogRecovery.Result result;
    try {
      result = CommandLogRecovery.read(dataDir, partitions, fingerprint, firstSegment, record -> {
        final TxnId id = TxnHeader.fromProto(record.getHeader()).id();
        if (id.partition() < partitions && holds(map, id.partition(), hostId) && !dropped(voids, id)) {
          copies.add(record, id);
        }
      });
    } catch (LogCorruptException e) {
      throw new StartupException(e.getMessage(), e);
    } catch (IOException e) {
      throw new StartupException("command log in " + dataDir + ": " + e.getMessage(), e);
    }
    for (int p = 0; p < partitions; p++) {
      if (snapshotCuts[p] != null) {
        copies.atLeast(p, snapshotCuts[p]);
      }
    }
    final List<LogTail> tails = copies.tails(map, hostId);
    LOG.info("recovery: the command log in " + dataDir + " holds " + result.records() + " record(s) in "
        + result.segments() + " segment(s)" + (firstSegment > 1 ? " from segment " + firstSegment : "")
        + "; the last of each copy this host held (its log, or the snapshot it loads when that cut is later): "
        + describe(tails));
    return new Scan(tails, result.records(), firstSegment, result.nextSegment(), result.lastEpoch());
  }

  /**
   * The segment {@code dataDir}'s log begins at: 1, or after a truncation
   * ({@link LogTruncation}) the mark's, once each copy {@code map} gives
   * {@code hostId} loads a part ({@code loaded}, by partition) holding every
   * record of it the truncation deleted; segments a crash left before the
   * mark's are deleted then. Refuses when some copy has none: its deleted
   * records would be lost.
   */
  static long checkTruncation(Path dataDir, TxnId[] loaded, PartitionMap map, int hostId)
      throws StartupException {
    try {
      final LogTruncation.Mark mark = LogTruncation.readMark(dataDir);
      if (mark == null) {
        return 1;
      }
      for (int p = 0; p < mark.cut().size() && p < map.partitionCount(); p++) {
        final TxnId need = mark.cut().get(p);
        final TxnId have = p < loaded.length ? loaded[p] : null;
        if (need != null && holds(map, p, hostId) && (have == null || have.compareTo(need) < 0)) {
          throw new StartupException("the command log in " + dataDir + " begins at segment " + mark.firstSegment()
              + " (the segments before it were deleted because a snapshot held their records, partition " + p
              + " up to " + need.epoch() + ":" + need.sequence() + "), but this host loads no complete, intact"
              + " snapshot part holding them for partition " + p + (have == null ? "" : " (the part it would load"
              + " is cut at " + have.epoch() + ":" + have.sequence() + ")") + ". Put back an intact copy of that"
              + " snapshot's directory under " + dataDir.resolve("snapshots") + "; the log lines above say why each"
              + " part was passed over", null);
        }
      }
      LogTruncation.finish(dataDir, mark);
      return mark.firstSegment();
    } catch (IOException e) {
      throw new StartupException("command log in " + dataDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Replays into {@code database} (opened on {@code map}, the reconciled
   * map, every led copy behind an immediate pipeline) every record of a copy
   * it holds that {@code voids} keeps, then waits for them; a copy loaded
   * from one of the host's snapshots first ({@link ClusterSnapshotRecovery})
   * replays only its records after that snapshot's cut.
   */
  static void replay(Database database, Path dataDir, int partitions, int fingerprint, PartitionMap map,
      int hostId, List<VoidTail> voids) throws StartupException {
    final long begin = System.nanoTime();
    final TxnId[] loaded = ClusterSnapshotRecovery.load(database, dataDir, map, hostId, voids);
    final long firstSegment = checkTruncation(dataDir, loaded, map, hostId);
    final LogReplay replay = database.copyReplayer();
    final long[] passed = new long[1];
    final HeldParts parts = new HeldParts(partitions, replay::replay);
    try {
      CommandLogRecovery.read(dataDir, partitions, fingerprint, firstSegment, record -> {
        final TxnId id = TxnHeader.fromProto(record.getHeader()).id();
        if (!(id.partition() < partitions && holds(map, id.partition(), hostId) && !dropped(voids, id)
            && (counts(record) || record.getKindCase() == WorkItem.KindCase.DECISION)
            && (loaded[id.partition()] == null || id.compareTo(loaded[id.partition()]) > 0)
            && parts.offer(id.partition(), record))) {
          passed[0]++;
        }
      });
      parts.finish();
    } catch (LogCorruptException e) {
      replay.finish();
      throw new StartupException(e.getMessage(), e);
    } catch (IOException e) {
      replay.finish();
      throw new StartupException("command log in " + dataDir + ": " + e.getMessage(), e);
    }
    final List<RuntimeException> failures = replay.finish();
    if (!failures.isEmpty()) {
      throw new StartupException("the command log in " + dataDir + " does not replay on this host's copies ("
          + failures.size() + " problem(s)); the first: " + failures.get(0).getMessage(), failures.get(0));
    }
    LOG.info("recovery: replayed " + replay.replayed() + " transaction(s) (" + replay.multiPartition()
        + " part(s) of multi-partition transactions) on this host's copies; " + passed[0] + " record(s) passed over"
        + " (other copies, dropped tails, records within a loaded snapshot, joins, decisions and abort markers) in "
        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin) + " ms");
  }

  /**
   * Whether {@code record} is one a copy replays and counts in its tail: a call, a part of a multi-partition
   * transaction, or a decision recording a call ({@link #recordsCall}).
   */
  private static boolean counts(WorkItem record) {
    return record.getKindCase() == WorkItem.KindCase.SINGLE_PARTITION
        || record.getKindCase() == WorkItem.KindCase.MULTI_PARTITION_RUN || recordsCall(record);
  }

  /**
   * Whether {@code record} is a decision committing partition 0's part with
   * a client session's answer (or its call without one, committed by a
   * coordinator after a failover): it records the call in that copy's
   * de-duplication table (docs/cluster.md, "Client de-duplication"), so it
   * is replayed and counts in the copy's tail like a call.
   */
  static boolean recordsCall(WorkItem record) {
    return record.getKindCase() == WorkItem.KindCase.DECISION && record.getDecision().getCommit()
        && (!record.getDecision().getAnswer().isEmpty() || record.getDecision().getAnswerUnknown());
  }

  private static boolean holds(PartitionMap map, int partition, int hostId) {
    return map.replicas(partition).replicaHosts().contains(hostId);
  }

  /** True iff a recovery dropped {@code id}: after a cut of its partition, in an epoch before that cut's next. */
  static boolean dropped(List<VoidTail> voids, TxnId id) {
    for (VoidTail v : voids) {
      if (v.getPartition() == id.partition() && id.epoch() < v.getNextEpoch()
          && (id.epoch() > v.getCutEpoch() || id.epoch() == v.getCutEpoch() && id.sequence() > v.getCutSequence())) {
        return true;
      }
    }
    return false;
  }

  private static String describe(List<LogTail> tails) {
    final List<String> out = new ArrayList<>();
    for (LogTail t : tails) {
      out.add(t.getPartition() + ": " + (t.getEpoch() == 0 ? "none" : t.getEpoch() + ":" + t.getSequence()));
    }
    return out.isEmpty() ? "(none)" : String.join(", ", out);
  }
}
