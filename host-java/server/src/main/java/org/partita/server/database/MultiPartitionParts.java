package org.partita.server.database;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.partita.server.txn.TxnId;

/**
 * What the copies of one cluster host hold of multi-partition transactions
 * (docs/cluster.md, "When a host dies mid-transaction"), for the outcome
 * queries of a coordinator deciding after a failover: the parts open on
 * the partitions this host leads (their {@link LocalParticipant}s), the
 * parts held prepared on its replica copies ({@link PreparedHold}), and how
 * the last parts ended (the last {@value #REMEMBERED}).
 *
 * <p>Thread-safe (this object's monitor): sites, the internal port's event
 * loop and the resolver call it.
 */
final class MultiPartitionParts {
  /** Ended parts remembered at most. */
  static final int REMEMBERED = 65_536;

  private record Key(TxnId txn, int partition) {}

  private final int partitions;
  private final Map<Key, LocalParticipant> open = new HashMap<>();
  private final Map<Key, PreparedHold> held = new HashMap<>();
  /** Per replica copy: the prepared part its next decision item decides, or null. */
  private final PreparedHold[] awaiting;
  private final Map<Key, Boolean> ended = new LinkedHashMap<>(1024, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Key, Boolean> eldest) {
      return size() > REMEMBERED;
    }
  };

  MultiPartitionParts(int partitions) {
    this.partitions = partitions;
    this.awaiting = new PreparedHold[partitions];
  }

  /** {@code participant} runs {@code txn}'s part of {@code partition}, led here. */
  synchronized void opened(TxnId txn, int partition, LocalParticipant participant) {
    open.put(new Key(txn, partition), participant);
  }

  /** The part led here ended: committed or not. */
  synchronized void closed(TxnId txn, int partition, boolean committed) {
    final Key key = new Key(txn, partition);
    open.remove(key);
    ended.put(key, committed);
  }

  /**
   * A replica copy of {@code partition} is given {@code txn}'s prepared
   * part: the hold its site will wait on, and the one the next decision
   * item of the partition decides.
   */
  synchronized PreparedHold hold(TxnId txn, int partition) {
    final PreparedHold hold = new PreparedHold(txn, partition);
    held.put(new Key(txn, partition), hold);
    awaiting[partition] = hold;
    return hold;
  }

  /** The hold a decision item of {@code partition} decides (null: none), no longer awaiting one. */
  synchronized PreparedHold decisionFor(int partition) {
    final PreparedHold hold = awaiting[partition];
    awaiting[partition] = null;
    return hold;
  }

  /** The undecided prepared part held on the replica copy of {@code partition}, or null. */
  synchronized PreparedHold undecided(int partition) {
    final PreparedHold hold = awaiting[partition];
    return hold == null || hold.decided() ? null : hold;
  }

  /** A held part ended on its copy (committed or rolled back). */
  synchronized void ended(PreparedHold hold, boolean committed) {
    final Key key = new Key(hold.txn(), hold.partition());
    held.remove(key);
    if (awaiting[hold.partition()] == hold) {
      awaiting[hold.partition()] = null;
    }
    ended.put(key, committed);
  }

  /** A hold whose item never reached its copy (a full queue): forgotten. */
  synchronized void dropped(PreparedHold hold) {
    held.remove(new Key(hold.txn(), hold.partition()));
    if (awaiting[hold.partition()] == hold) {
      awaiting[hold.partition()] = null;
    }
  }

  /** The state of each part of {@code txn} this host's copies hold; partitions without one are left out. */
  synchronized List<PartOnCopy> states(TxnId txn) {
    final List<PartOnCopy> out = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      final Key key = new Key(txn, p);
      final LocalParticipant participant = open.get(key);
      final Boolean end = ended.get(key);
      if (participant != null) {
        out.add(new PartOnCopy(p, participant.state()));
      } else if (held.containsKey(key)) {
        out.add(new PartOnCopy(p, FailoverOutcome.PartState.PREPARED));
      } else if (end != null) {
        out.add(new PartOnCopy(p, end ? FailoverOutcome.PartState.COMMITTED : FailoverOutcome.PartState.ROLLED_BACK));
      }
    }
    return out;
  }

  /** One part's state on one copy. */
  record PartOnCopy(int partition, FailoverOutcome.PartState state) {}
}
