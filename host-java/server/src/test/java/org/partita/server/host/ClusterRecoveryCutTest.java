package org.partita.server.host;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.proto.cluster.VoidTail;
import org.partita.server.txn.TxnId;

/**
 * Which logged records a whole-cluster restart passes over
 * ({@link ClusterRecovery#dropped}): those after a recovery's cut of their
 * partition, in an epoch before the one the partition moved to then.
 */
class ClusterRecoveryCutTest {
  private static VoidTail cut(int partition, long epoch, long sequence, long next) {
    return VoidTail.newBuilder().setPartition(partition).setCutEpoch(epoch).setCutSequence(sequence)
        .setNextEpoch(next).build();
  }

  @Test
  void shouldDropOnlyWhatFollowsTheCutBeforeTheNewEpoch() {
    final List<VoidTail> voids = List.of(cut(0, 2, 50, 4));
    assertFalse(ClusterRecovery.dropped(voids, new TxnId(0, 2, 50)), "the cut itself is kept");
    assertFalse(ClusterRecovery.dropped(voids, new TxnId(0, 1, 900)), "an earlier epoch is kept");
    assertTrue(ClusterRecovery.dropped(voids, new TxnId(0, 2, 51)), "the tail after the cut is dropped");
    assertTrue(ClusterRecovery.dropped(voids, new TxnId(0, 3, 1)), "so is a later epoch before the new one");
    assertFalse(ClusterRecovery.dropped(voids, new TxnId(0, 4, 1)), "the new epoch's transactions are kept");
    assertFalse(ClusterRecovery.dropped(voids, new TxnId(1, 2, 51)), "another partition is not cut");
  }

  @Test
  void shouldApplyEveryRecoverysCut() {
    // The first recovery cut partition 0 at 1:10 (next epoch 2), the second at 2:5 (next epoch 3).
    final List<VoidTail> voids = List.of(cut(0, 1, 10, 2), cut(0, 2, 5, 3));
    assertTrue(ClusterRecovery.dropped(voids, new TxnId(0, 1, 11)));
    assertFalse(ClusterRecovery.dropped(voids, new TxnId(0, 2, 5)));
    assertTrue(ClusterRecovery.dropped(voids, new TxnId(0, 2, 6)));
    assertFalse(ClusterRecovery.dropped(voids, new TxnId(0, 3, 1)));
  }

  @Test
  void shouldDropEveryRecordOfAnEpochWhenTheCopiesHeldNone() {
    final List<VoidTail> voids = List.of(cut(2, 0, 0, 2));
    assertTrue(ClusterRecovery.dropped(voids, new TxnId(2, 1, 1)), "a read only the leader logged");
    assertFalse(ClusterRecovery.dropped(voids, new TxnId(2, 2, 1)));
  }
}
