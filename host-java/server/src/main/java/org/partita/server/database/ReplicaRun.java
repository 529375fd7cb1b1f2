package org.partita.server.database;

import com.google.protobuf.ByteString;
import org.partita.client.ClientResponse;
import org.partita.server.engine.EngineException;
import org.partita.server.engine.PartitionEngine;
import org.partita.server.planner.PlanningException;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.MalformedInvocationException;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.ReplicaExecutor;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * An item that the partition's leader sequenced and ran, run on this host's
 * copy of the partition (a replica site; docs/cluster.md, "Data plane"):
 * decoded against this host's catalog as recovery decodes a logged item,
 * run under the leader's header (its timestamp and seed) without a time
 * limit and invisible to {@code @CancelQuery}, as a replayed item runs; its
 * write hash goes to {@code done}. A part of a multi-partition transaction
 * runs the engine batches its leader ran, then commits. Not sequenced here:
 * a replica runs the leader's order. Once it ran, the item goes to the
 * host's replica log ({@link Database#replicaLog}) under the leader's header
 * (a host with a command log logs it there, the record its leader logged:
 * docs/durability.md, "On a cluster"), and {@code done} hears of it when
 * that pipeline releases it (in
 * sync mode once the record is on this host's disk; on the log's writer
 * thread then, else on the copy's thread).
 */
record ReplicaRun(Database database, org.partita.proto.txn.WorkItem item, ReplicaExecutor.Done done,
                  PreparedHold hold) implements WorkItem {
  /** An item other than a prepared part. */
  ReplicaRun(Database database, org.partita.proto.txn.WorkItem item, ReplicaExecutor.Done done) {
    this(database, item, done, null);
  }

  @Override
  public void run(Site site, TxnHeader ignored) {
    if (done.cancelled()) {
      return;
    }
    final TxnHeader header = TxnHeader.fromProto(item.getHeader());
    if (header.catalogVersion() != site.catalogVersion()) {
      done.failed(header.id() + " ran at catalog version " + header.catalogVersion() + " on its leader, but this"
          + " copy of partition " + site.partition() + " is at version " + site.catalogVersion());
      return;
    }
    if (item.hasMultiPartitionRun()) {
      if (hold != null) {
        runPrepared(site, header);
      } else {
        runPart(site, header);
      }
      return;
    }
    final ClientResponse[] answer = new ClientResponse[1];
    final WorkItem call;
    try {
      call = LogReplay.singlePartitionItem(database, site.catalogSnapshot(), site.replicaInvocation(item),
          response -> answer[0] = response);
    } catch (MalformedInvocationException | PlanningException | RuntimeException e) {
      done.failed("cannot run " + header.id() + " on this copy: " + e.getMessage());
      return;
    }
    site.replayingLeadersItem(true);
    try {
      call.run(site, header);
    } finally {
      site.replayingLeadersItem(false);
    }
    site.replicated(header);
    logged(site, header, answer[0] != null && answer[0].ok() ? site.context().writeHash() : 0);
  }

  /** Hands the item that ran to the host's replica log; {@code done} hears once it is released. */
  private void logged(Site site, TxnHeader header, long writeHash) {
    logged(header, () -> done.ran(writeHash));
  }

  /** Hands the item to the host's replica log; {@code then} runs once it is released. */
  private void logged(TxnHeader header, Runnable then) {
    final CommitPipeline pipeline = database.replicaLog();
    final SequencedItem record = new Logged(item);
    pipeline.sequenced(header, record);
    pipeline.release(header, record, then);
  }

  /**
   * The item as this copy's log records it: a single-partition call as its
   * leader sent it; a part of a multi-partition transaction as the engine
   * batches this copy ran (a record recovery replays on this copy alone,
   * docs/durability.md, "On a cluster").
   */
  private record Logged(org.partita.proto.txn.WorkItem item) implements SequencedItem {
    @Override
    public org.partita.proto.txn.WorkItem toProto(TxnHeader header) {
      return item;
    }
  }

  /**
   * Runs this copy's part of a committed multi-partition transaction: the
   * leader's batches in order, then commits; the write hash follows
   * {@link ReplicatedPart.Recorder}'s rule, so it is the leader's when the
   * copies agree.
   */
  private void runPart(Site site, TxnHeader header) {
    final PartitionEngine engine = site.engine();
    long hash = 0;
    site.replaying(true);
    try {
      hash = runBatches(engine);
      if (engine.inTransaction()) {
        engine.commit();
      }
      if (schemaChange() != null) {
        hash = takeCatalog(site);
        database.adoptCatalog(site.catalogSnapshot());
      }
    } catch (RuntimeException e) {
      if (engine.inTransaction()) {
        engine.rollback();
      }
      done.failed("cannot run " + header.id() + " (a part of a multi-partition transaction) on this copy: "
          + e.getMessage());
      return;
    } finally {
      site.replaying(false);
    }
    site.replicated(header);
    logged(site, header, hash);
  }

  /** The schema change this part of a multi-partition transaction makes, or null (a call or statement). */
  private org.partita.proto.txn.SchemaChange schemaChange() {
    final org.partita.proto.txn.MultiPartitionJoin join = item.getMultiPartitionRun().getJoin();
    return join.hasSchemaChange() ? join.getSchemaChange() : null;
  }

  /**
   * This copy takes the catalog of the part's schema change, compiled on
   * this host ({@link CatalogVersions}); returns its write hash, which the
   * leader's must equal.
   */
  private long takeCatalog(Site site) {
    final org.partita.proto.txn.SchemaChange change = schemaChange();
    final CatalogSnapshot next = database.catalogs().next(change);
    site.takeCatalog(next, change.getEngineCatalog().toByteArray());
    return CatalogVersions.writeHash(next);
  }

  /** A prepared schema change decided: committed, the host adopts it; rolled back, the copy's catalog is put back. */
  private void endCatalogChange(Site site, boolean commit, CatalogSnapshot before) {
    if (commit) {
      database.adoptCatalog(site.catalogSnapshot());
    } else if (site.catalogVersion() != before.version()) {
      site.takeCatalog(before);
    }
  }

  /**
   * Runs the leader's batches of the part in order, leaving the engine's
   * transaction open; the write hash by {@link ReplicatedPart.Recorder}'s
   * rule (a failed batch rolled the transaction back: 0).
   */
  private long runBatches(PartitionEngine engine) {
    long hash = 0;
    for (ByteString batch : item.getMultiPartitionRun().getBatchesList()) {
      engine.request().load(batch.toByteArray());
      try {
        engine.execute();
        hash = engine.writeHash();
      } catch (EngineException e) {
        hash = 0;
      }
    }
    return hash;
  }

  /**
   * Runs this copy's part of a prepared multi-partition transaction
   * (docs/cluster.md, "When a host dies mid-transaction"): the leader's
   * batches, leaving the engine's transaction open; logs the part (when it
   * changed something) and, once the log released it, acknowledges the part
   * with its write hash (its leader's prepare step waits for that), then
   * holds the site — nothing else runs on this copy — until the decision
   * comes ({@link PreparedHold}): commits or rolls back, logs the decision
   * after the part, and answers the decision item.
   */
  private void runPrepared(Site site, TxnHeader header) {
    final PartitionEngine engine = site.engine();
    final CatalogSnapshot catalogBefore = site.catalogSnapshot();
    final boolean changesCatalog = schemaChange() != null;
    long hash = 0;
    site.replaying(true);
    try {
      hash = runBatches(engine);
      if (changesCatalog) {
        hash = takeCatalog(site);
      }
    } catch (RuntimeException e) {
      if (engine.inTransaction()) {
        engine.rollback();
      }
      database.multiPartitionParts().ended(hold, false);
      done.failed("cannot run " + header.id() + " (a prepared part of a multi-partition transaction) on this copy: "
          + e.getMessage());
      return;
    } finally {
      site.replaying(false);
    }
    if (hash != 0) {
      final long prepared = hash;
      logged(header, () -> done.ran(prepared));
    } else {
      done.ran(hash);
    }
    final PreparedHold.Decision decision = hold.await();
    final boolean commit = decision.commit() && (engine.inTransaction() || changesCatalog);
    if (engine.inTransaction()) {
      if (decision.commit()) {
        engine.commit();
      } else {
        engine.rollback();
      }
    }
    if (changesCatalog) {
      endCatalogChange(site, decision.commit(), catalogBefore);
    }
    final PreparedHold.Decision record = callToRecord(site, decision);
    if (record != null) {
      recordCall(site, header, record);
    }
    database.multiPartitionParts().ended(hold, decision.commit());
    site.replicated(decision.header() != null ? decision.header() : header);
    final long decided = commit ? hash : 0;
    if (decision.header() == null) {
      // Decided by the coordinator: this copy was promoted and its other copies wait for the decision from it.
      site.relayOnLead(relayed(site, header, decision.commit()), decided);
    }
    final ReplicaExecutor.Done answer = decision.done();
    final Runnable acknowledge = answer == null ? () -> { } : () -> answer.ran(decided);
    if (hash != 0 || record != null) {
      loggedDecision(decision.header() != null ? decision.header() : header, decision.commit(), record,
          header.timestampMicros(), acknowledge);
    } else {
      acknowledge.run();
    }
  }

  /**
   * The coordinator's decision on this copy's held part, which the copy,
   * promoted, passes on as the first item it sequences. On partition
   * {@link Deduplication#MULTI_PARTITION_RECORDS}, a commit of a client
   * session's call carries the call to record without an answer, as this
   * copy recorded it ({@link #callToRecord}), so the other copies record it
   * too and every copy's log holds the record: a call sent again after a
   * whole-cluster restart is refused as of unknown outcome, never run twice.
   */
  private PartDecision relayed(Site site, TxnHeader header, boolean commit) {
    final org.partita.proto.txn.MultiPartitionJoin join = item.getMultiPartitionRun().getJoin();
    final TxnHeader coordinator = TxnHeader.fromProto(join.getCoordinator());
    if (commit && site.partition() == Deduplication.MULTI_PARTITION_RECORDS && join.hasInvocation()) {
      try {
        final Invocation invocation = Invocation.fromProto(join.getInvocation());
        return PartDecision.committedWithoutAnswer(new MultiPartitionTxn(coordinator, invocation, null),
            header.timestampMicros());
      } catch (MalformedInvocationException e) {
        // Not a call anyone can send again under its session: nothing to record.
      }
    }
    return new PartDecision(new MultiPartitionTxn(coordinator, null, null), commit, null, 0);
  }

  /**
   * The committed call of a client session this copy of partition
   * {@link Deduplication#MULTI_PARTITION_RECORDS} records and logs with its
   * decision (docs/cluster.md, "Client de-duplication"), or null: the
   * leader's decision item when it carries an answer (or the call without
   * one); or, decided by a coordinator after a failover, the call without an
   * answer (nobody alive may know it), so a call sent again is refused, never
   * run twice. Every copy the coordinator decided logs it, whether or not it
   * goes on to lead; the one that does passes the call on as well
   * ({@link #relayed}), and recording a call twice records it once.
   */
  private PreparedHold.Decision callToRecord(Site site, PreparedHold.Decision decision) {
    if (!decision.commit() || site.partition() != Deduplication.MULTI_PARTITION_RECORDS
        || !item.getMultiPartitionRun().getJoin().hasInvocation()) {
      return null;
    }
    if (decision.header() == null) {
      return new PreparedHold.Decision(true, null, null, ByteString.EMPTY, true);
    }
    return !decision.answer().isEmpty() || decision.answerUnknown() ? decision : null;
  }

  /** Records {@code record} ({@link #callToRecord}) in the copy's table, under the part's time. */
  private void recordCall(Site site, TxnHeader header, PreparedHold.Decision record) {
    ClientResponse answer = null;
    if (!record.answerUnknown()) {
      try {
        answer = DedupTable.decodeAnswer(record.answer().toByteArray());
      } catch (IllegalArgumentException e) {
        // Recorded without it: a call sent again is refused as of unknown outcome, never run twice.
        answer = null;
      }
    }
    final org.partita.proto.txn.ProcedureInvocation call = item.getMultiPartitionRun().getJoin().getInvocation();
    Deduplication.multiPartitionCommitted(site, call.getClientId(), call.getClientSequence(), answer,
        header.timestampMicros());
  }

  /**
   * Logs the decision on a part this copy logged prepared (commit or roll
   * back, under the decision item's header, or the part's when a coordinator
   * decided after a failover), as its leader logs it, with the call to
   * record ({@code toRecord}: the leader's decision carrying an answer, or the
   * call without one; null: none) and its session, handle and time;
   * {@code then} runs once it is released.
   */
  private void loggedDecision(TxnHeader header, boolean commit, PreparedHold.Decision toRecord,
      long recordedAtMicros, Runnable then) {
    final org.partita.proto.txn.MultiPartitionDecision.Builder decision =
        org.partita.proto.txn.MultiPartitionDecision.newBuilder()
            .setCoordinator(item.getMultiPartitionRun().getJoin().getCoordinator()).setCommit(commit);
    if (toRecord != null) {
      final org.partita.proto.txn.ProcedureInvocation call = item.getMultiPartitionRun().getJoin().getInvocation();
      decision.setAnswer(toRecord.answer()).setAnswerUnknown(toRecord.answerUnknown()).setClientId(call.getClientId())
          .setClientSequence(call.getClientSequence()).setRecordedAtMicros(recordedAtMicros);
    }
    final org.partita.proto.txn.WorkItem record = org.partita.proto.txn.WorkItem.newBuilder()
        .setHeader(header.toProto()).setDecision(decision).build();
    final CommitPipeline pipeline = database.replicaLog();
    final SequencedItem logged = new Logged(record);
    pipeline.sequenced(header, logged);
    pipeline.release(header, logged, then);
  }

  @Override
  public void refuse(ClientResponse response) {
    done.failed("this copy of partition " + item.getHeader().getPartition() + " did not run "
        + item.getHeader().getSequence() + ": " + response.message());
  }
}
