package org.partita.server.database;

import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.InvocationReader;
import org.partita.server.txn.MalformedInvocationException;

/**
 * The partitioning value of the call queued behind the one a site runs, for
 * the engine's prefetch hint (docs/engine-formats.md, "Prefetch key"): the
 * first batch of each single-partition call carries the next call's value,
 * and the engine fetches that value's slots in its large hash indexes
 * (Voter's phone numbers) into cache while the current call runs, so the
 * next call's lookups do not wait on memory.
 *
 * <p>Only integer values, read straight from the invocation's bytes (no
 * boxing). A replica's next item is decoded once, here, and handed to its
 * run ({@link #replicaInvocation}), so looking ahead costs no second
 * decode. A hint: any call it cannot read cheaply gets none.
 *
 * <p>Site-confined.
 */
final class KeyAhead {
  private final InvocationReader replicaInvocations;
  /** A replica item decoded ahead and its invocation; null when none waits. */
  private org.partita.proto.txn.WorkItem decodedItem;
  private Invocation decoded;
  private long key;

  /** @param replicaInvocations the site's reader of its leader's invocations */
  KeyAhead(InvocationReader replicaInvocations) {
    this.replicaInvocations = replicaInvocations;
  }

  /**
   * Whether {@code next} (the item queued behind the running one, or null)
   * is a single-partition call whose partitioning value is an integer; if
   * so, {@link #key} holds it.
   */
  boolean find(WorkItem next, Site site) {
    if (next instanceof ProcedureCall call) {
      return call.admittedVersion() == site.catalogVersion() && call.admitted() != null
          && readKey(call.admitted(), call.invocation());
    }
    if (next instanceof ReplicaRun run && run.item().hasSinglePartition()) {
      final Invocation invocation = decodeAhead(run.item());
      final CompiledProcedure procedure = invocation == null ? null
          : site.catalog().procedure(invocation.procedure()).orElse(null);
      return procedure != null && readKey(procedure, invocation);
    }
    return false;
  }

  /** The value {@link #find} found last. */
  long key() {
    return key;
  }

  /**
   * The invocation of the replica item {@code item}: the one decoded when
   * it was looked at ahead, else decoded now.
   */
  Invocation replicaInvocation(org.partita.proto.txn.WorkItem item) throws MalformedInvocationException {
    if (item == decodedItem) {
      final Invocation invocation = decoded;
      decodedItem = null;
      decoded = null;
      return invocation;
    }
    return Invocation.fromProto(item.getSinglePartition(), replicaInvocations);
  }

  /** Decodes {@code item}'s invocation for its run; null when malformed (its run reports it). */
  private Invocation decodeAhead(org.partita.proto.txn.WorkItem item) {
    if (item == decodedItem) {
      return decoded;
    }
    try {
      decoded = Invocation.fromProto(item.getSinglePartition(), replicaInvocations);
      decodedItem = item;
      return decoded;
    } catch (MalformedInvocationException e) {
      decodedItem = null;
      decoded = null;
      return null;
    }
  }

  private boolean readKey(CompiledProcedure procedure, Invocation invocation) {
    final int at = procedure.singlePartition() ? ParameterConverter.integerPartitionKeyAt(procedure, invocation) : -1;
    if (at < 0) {
      return false;
    }
    key = invocation.integerAt(at);
    return true;
  }
}
