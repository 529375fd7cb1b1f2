package org.partita.server.database;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.partita.client.ClientResponse;
import org.partita.proto.txn.WorkItem.KindCase;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.planner.PlanningException;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.MalformedInvocationException;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * Recovery's way into the database: runs again, in the log's order, the
 * work items a command log recorded before a restart, each under the
 * header it was given then (docs/durability.md, "Replay").
 *
 * <p>A single-partition item is queued on its partition and not waited
 * for: partitions replay in parallel. A multi-partition transaction is
 * recorded once per partition (its join, at that partition's place in its
 * order); it runs when the last of those records arrives, and {@link #replay}
 * waits for it. That is the order it had: no partition can log anything
 * after its join before every partition has joined (the coordinator asks
 * each to finish, which each can only do once joined, before it releases
 * any), so every item a partition logged before its join is already queued
 * and every item after it comes later in the log.
 *
 * <p>Thread model: {@link #replay} and {@link #finish} from one thread
 * (recovery's), before the database serves clients. Responses arrive on
 * site and coordinator threads.
 */
public final class LogReplay {
  private final Database database;
  // By partition; null where this host holds no copy (a cluster host).
  private final Site[] sites;
  private final MpCoordinator coordinator;
  private final List<RuntimeException> failures = new ArrayList<>();
  private final Consumer<RuntimeException> failureSink = this::fail;
  private final Map<TxnId, TxnHeader[]> joins = new HashMap<>();
  private final Map<TxnId, Integer> joinsSeen = new HashMap<>();
  private final CompletableFuture<?>[] lastOfPartition;
  private final AtomicLong replayed = new AtomicLong();
  /**
   * A cluster host's: by partition, the catalog its copy is at after the records read so far (a schema
   * change's part moves it); its calls are decoded at it.
   */
  private final CatalogSnapshot[] catalogOf;
  private long multiPartition;
  // By partition: the last transaction in the snapshot recovery loaded (its records are skipped); null entries: none.
  private TxnId[] snapshotCut;
  private long skipped;

  /**
   * @param sites the copy of each partition, by partition (null: none here, a cluster host's)
   * @param coordinator the host's multi-partition coordinator, or null on a cluster host: its log holds each
   *     copy's part of a multi-partition transaction, replayed on that copy alone, and its joins are not replayed
   */
  LogReplay(Database database, Site[] sites, MpCoordinator coordinator) {
    this.database = database;
    this.sites = sites.clone();
    this.coordinator = coordinator;
    this.lastOfPartition = new CompletableFuture<?>[sites.length];
    this.catalogOf = new CatalogSnapshot[sites.length];
    java.util.Arrays.fill(catalogOf, database.catalogSnapshot());
  }

  /**
   * Skips, from now on, every record of partition p up to {@code cuts.get(p)}
   * (null: none): they are in the snapshot recovery loaded. A multi-partition
   * transaction is in a snapshot on every partition or on none (the cut is
   * consistent), so its joins are skipped together.
   */
  public void skipThrough(List<TxnId> cuts) {
    snapshotCut = cuts.toArray(new TxnId[0]);
  }

  /** Records skipped as already in the loaded snapshot. */
  public long skipped() {
    return skipped;
  }

  /** Runs {@code record} again (or, for a multi-partition join, counts it until every partition's has come). */
  public void replay(org.partita.proto.txn.WorkItem record) {
    final TxnHeader header = TxnHeader.fromProto(record.getHeader());
    final int partition = header.id().partition();
    if (partition >= sites.length || sites[partition] == null) {
      fail(new IllegalStateException(header.id() + " belongs to partition " + partition + ", of which this host"
          + " holds no copy (" + sites.length + " partition(s))"));
      return;
    }
    if (snapshotCut != null && snapshotCut[partition] != null && header.id().compareTo(snapshotCut[partition]) <= 0) {
      skipped++;
      return;
    }
    if (record.getKindCase() == KindCase.MULTI_PARTITION) {
      join(record.getMultiPartition(), header);
    } else if (record.getKindCase() == KindCase.SINGLE_PARTITION) {
      singlePartition(record, header);
    } else if (record.getKindCase() == KindCase.MULTI_PARTITION_RUN) {
      part(record, header);
    } else if (record.getKindCase() == KindCase.DECISION) {
      recordCall(record.getDecision(), header);
    } else {
      fail(new IllegalStateException(header.id() + " is a work item of no known kind"));
    }
  }

  private void singlePartition(org.partita.proto.txn.WorkItem record, TxnHeader header) {
    final CompletableFuture<ClientResponse> done = new CompletableFuture<>();
    final WorkItem item;
    try {
      final Invocation invocation = Invocation.fromProto(record.getSinglePartition());
      item = coordinator != null ? singlePartitionItem(database, invocation, done::complete)
          : singlePartitionItem(database, catalogOf[header.id().partition()], invocation, done::complete);
    } catch (MalformedInvocationException | PlanningException | RuntimeException e) {
      fail(new IllegalStateException("cannot replay " + header.id() + ": " + e.getMessage(), e));
      return;
    }
    final int partition = header.id().partition();
    lastOfPartition[partition] = done;
    replayed.incrementAndGet();
    sites[partition].submit(new Replayed(item, header, failureSink));
  }

  /** A cluster copy's part of a multi-partition transaction: its batches run again on that copy alone. */
  private void part(org.partita.proto.txn.WorkItem record, TxnHeader header) {
    final int partition = header.id().partition();
    final CompletableFuture<Void> done = new CompletableFuture<>();
    lastOfPartition[partition] = done;
    replayed.incrementAndGet();
    multiPartition++;
    if (record.getMultiPartitionRun().getJoin().hasSchemaChange()) {
      try {
        catalogOf[partition] = database.catalogs().next(record.getMultiPartitionRun().getJoin().getSchemaChange());
      } catch (RuntimeException e) {
        fail(new IllegalStateException("cannot replay " + header.id() + " (a schema change) on partition "
            + partition + ": " + e.getMessage(), e));
        return;
      }
    }
    sites[partition].submit(new ReplayedPart(record.getMultiPartitionRun(), header, failureSink, done, database));
  }

  /**
   * A cluster copy's logged decision carrying a client session's answer:
   * partition {@link Deduplication#MULTI_PARTITION_RECORDS}'s copy records
   * the call as its live copies did when the decision came.
   */
  private void recordCall(org.partita.proto.txn.MultiPartitionDecision decision, TxnHeader header) {
    final int partition = header.id().partition();
    final CompletableFuture<Void> done = new CompletableFuture<>();
    lastOfPartition[partition] = done;
    sites[partition].submit(new ReplayedRecord(decision, header, failureSink, done));
  }

  /**
   * The work item that runs {@code invocation} (a procedure call or an
   * {@code @AdHoc} statement) on one partition of {@code database} at its
   * current catalog: how a logged or replicated item is run again.
   */
  static WorkItem singlePartitionItem(Database database, Invocation invocation, Consumer<ClientResponse> done)
      throws PlanningException {
    return singlePartitionItem(database, database.catalogSnapshot(), invocation, done);
  }

  /** As above, at the catalog {@code snapshot} (the one its copy is at when it runs it). */
  static WorkItem singlePartitionItem(Database database, CatalogSnapshot snapshot, Invocation invocation,
      Consumer<ClientResponse> done) throws PlanningException {
    if (invocation.procedure().equals("@AdHoc")) {
      final Object[] values = invocation.parameters();
      final String sql = (String) values[0];
      final Object[] parameters = Arrays.copyOfRange(values, 1, values.length);
      return new AdHocCall(invocation, sql, database.adHocPlans().plan(sql, snapshot.catalog()), parameters,
          snapshot.version(), done);
    }
    final CompiledProcedure procedure = snapshot.catalog().procedure(invocation.procedure()).orElseThrow(
        () -> new IllegalStateException("procedure " + invocation.procedure() + " is not in catalog version "
            + snapshot.version()));
    return new ProcedureCall(invocation, procedure, snapshot.version(), done);
  }

  private void join(org.partita.proto.txn.MultiPartitionJoin join, TxnHeader header) {
    if (coordinator == null) {
      fail(new IllegalStateException(header.id() + " is a multi-partition join, which a cluster host does not"
          + " replay (it replays each copy's part)"));
      return;
    }
    final TxnId coordinatorId = TxnHeader.fromProto(join.getCoordinator()).id();
    final TxnHeader[] headers = joins.computeIfAbsent(coordinatorId, id -> new TxnHeader[sites.length]);
    headers[header.id().partition()] = header;
    final int seen = joinsSeen.merge(coordinatorId, 1, Integer::sum);
    if (seen < sites.length) {
      return;
    }
    joins.remove(coordinatorId);
    joinsSeen.remove(coordinatorId);
    final CompletableFuture<ClientResponse> done = new CompletableFuture<>();
    coordinator.submit(new MpCoordinator.Replay(join, headers, failureSink, done::complete));
    done.join();
    multiPartition++;
    replayed.incrementAndGet();
  }

  /**
   * Waits until every replayed item has run. Returns the mismatches found
   * between the log and the schema (empty when the replay is faithful).
   */
  public List<RuntimeException> finish() {
    for (CompletableFuture<?> last : lastOfPartition) {
      if (last != null) {
        last.join();
      }
    }
    synchronized (failures) {
      return List.copyOf(failures);
    }
  }

  /**
   * Multi-partition transactions at the end of the log that not every
   * partition logged a join for: the host stopped while they ran, before
   * any of them could commit (no partition logs anything after its join
   * until all have joined), so they were never answered and are not run.
   */
  public List<TxnId> unfinished() {
    return List.copyOf(joinsSeen.keySet());
  }

  /** Work items run again so far (a multi-partition transaction counts once). */
  public long replayed() {
    return replayed.get();
  }

  /** Multi-partition transactions (schema changes included) run again so far. */
  public long multiPartition() {
    return multiPartition;
  }

  private void fail(RuntimeException failure) {
    synchronized (failures) {
      failures.add(failure);
    }
  }
}
