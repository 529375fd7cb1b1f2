package org.partita.server.replication;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeMap;
import org.partita.proto.cluster.RepairOffer;
import org.partita.proto.cluster.ReplicatedItem;

/**
 * The longest order the survivors of a dead leader received, from their
 * repair offers (docs/cluster.md, "Repair among survivors"). Each survivor
 * received a prefix of the same order (the dead leader sent it in sequence
 * order), and each keeps every item after what it knows committed, which
 * every survivor received; so the survivor with the longest prefix holds
 * every item another one lacks, and the union has no gap. An immutable value.
 */
final class RepairUnion {
  private final TreeMap<Long, ReplicatedItem> items;
  private final long through;
  private final long oldEpoch;

  private RepairUnion(TreeMap<Long, ReplicatedItem> items, long through, long oldEpoch) {
    this.items = items;
    this.through = through;
    this.oldEpoch = oldEpoch;
  }

  /**
   * The union of {@code own} (the new leader's copy) and {@code others}.
   *
   * @throws IllegalArgumentException when an offer is of another old epoch than {@code own}
   */
  static RepairUnion of(RepairOffer own, Collection<RepairOffer> others) {
    final TreeMap<Long, ReplicatedItem> items = new TreeMap<>();
    long through = own.getLastReceived();
    for (RepairOffer offer : others) {
      if (offer.getOldEpoch() != own.getOldEpoch()) {
        throw new IllegalArgumentException("host " + offer.getHostId() + " offered items of epoch "
            + offer.getOldEpoch() + ", this copy's are of epoch " + own.getOldEpoch());
      }
      through = Math.max(through, offer.getLastReceived());
      offer.getItemsList().forEach(i -> items.putIfAbsent(i.getItem().getHeader().getSequence(), i));
    }
    own.getItemsList().forEach(i -> items.put(i.getItem().getHeader().getSequence(), i));
    return new RepairUnion(items, through, own.getOldEpoch());
  }

  /** The last sequence of the old order any survivor received. */
  long through() {
    return through;
  }

  /** The epoch of the old order. */
  long oldEpoch() {
    return oldEpoch;
  }

  /** The items after {@code last} through {@link #through}, in order; null when one of them is missing. */
  List<ReplicatedItem> after(long last) {
    final List<ReplicatedItem> out = new ArrayList<>();
    for (long s = last + 1; s <= through; s++) {
      final ReplicatedItem item = items.get(s);
      if (item == null) {
        return null;
      }
      out.add(item);
    }
    return out;
  }
}
