package org.partita.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.proto.cluster.AddReplica;
import org.partita.proto.cluster.HostRecord;
import org.partita.proto.cluster.HostState;
import org.partita.proto.cluster.LogTail;
import org.partita.proto.cluster.MetadataCommand;
import org.partita.proto.cluster.MetadataReply;
import org.partita.proto.cluster.MetadataSnapshot;
import org.partita.proto.cluster.RegisterHost;
import org.partita.proto.cluster.ReportLog;
import org.partita.proto.cluster.VoidTail;

/**
 * Whole-cluster restart in the metadata (docs/cluster.md, "Durability on a
 * cluster"): recovering registrations, log reports, and the reconciliation
 * of each partition's copies to their longest common prefix, without Ratis.
 * The map of {@link MetadataStateTest#threeHostMap}: partition 0 on hosts
 * 0 (leader) and 1, partition 1 on 2 (leader) and 0, partition 2 on 1
 * (leader) and 2, all in epoch 1.
 */
class MetadataRecoveryTest {
  private static final String CONFIGURATION = "cluster of three";
  private final MetadataState state = new MetadataState();

  private MetadataReply apply(MetadataCommand command) {
    return state.apply(command.toByteArray(), 7);
  }

  /** A formed cluster: three hosts registered (incarnations 1..3) and the map installed. */
  private void formed() {
    for (int h = 0; h < 3; h++) {
      assertTrue(apply(MetadataStateTest.register(h, h + 1, 5, CONFIGURATION)).getApplied());
    }
    assertTrue(apply(MetadataStateTest.install(0, MetadataStateTest.threeHostMap())).getApplied());
  }

  private static MetadataCommand recover(int host, long incarnation) {
    return MetadataCommand.newBuilder().setRegisterHost(RegisterHost.newBuilder()
        .setHost(HostRecord.newBuilder().setHostId(host).setIncarnation(incarnation))
        .setSchemaFingerprint(5).setConfiguration(CONFIGURATION).setHostCount(3).setRecover(true)).build();
  }

  /** {@code tails}: partition, epoch, sequence, partition, epoch, sequence, ... */
  private static MetadataCommand report(int host, long incarnation, long... tails) {
    final ReportLog.Builder report = ReportLog.newBuilder().setHostId(host).setIncarnation(incarnation);
    for (int i = 0; i < tails.length; i += 3) {
      report.addTails(LogTail.newBuilder().setPartition((int) tails[i]).setEpoch(tails[i + 1])
          .setSequence(tails[i + 2]));
    }
    return MetadataCommand.newBuilder().setReportLog(report).build();
  }

  private void recoverAll() {
    for (int h = 0; h < 3; h++) {
      assertTrue(apply(recover(h, 10 + h)).getApplied());
    }
  }

  @Test
  void shouldAcceptANewIncarnationOfAHostStillShownUpWhenItRecovers() {
    formed();
    final MetadataReply reply = apply(recover(1, 42));
    assertTrue(reply.getApplied(), reply.getRefusal());
    final HostRecord host = reply.getState().getHosts(1);
    assertEquals(42, host.getIncarnation());
    assertEquals(HostState.HOST_STATE_UP, host.getState());
    assertFalse(host.getServing(), "a recovering host serves again only once it says so");
    assertEquals(1, state.version(), "the map the cluster stopped with stays");
  }

  @Test
  void shouldRefuseToRecoverAHostTheClusterNeverRegisteredOrBeforeAnyMap() {
    assertTrue(apply(MetadataStateTest.register(0, 1, 5, CONFIGURATION)).getApplied());
    final MetadataReply noMap = apply(recover(0, 2));
    assertFalse(noMap.getApplied());
    assertTrue(noMap.getRefusal().contains("never installed its partition map"), noMap.getRefusal());
    final MetadataReply stranger = apply(recover(2, 3));
    assertFalse(stranger.getApplied());
    assertTrue(stranger.getRefusal().contains("has never registered host 2"), stranger.getRefusal());
  }

  @Test
  void shouldCutEachPartitionAtTheShortestCopyOnceEveryCopyReported() {
    formed();
    recoverAll();
    assertTrue(apply(report(0, 10, 0, 1, 50, 1, 1, 30)).getApplied());
    assertTrue(apply(report(1, 11, 0, 1, 48, 2, 1, 70)).getApplied());
    assertEquals(1, state.snapshot().getRecoveryRound(), "the first report opened a round");
    assertEquals(0, state.snapshot().getRecoveredRound(), "host 2 has not reported: nothing is decided");
    assertEquals(1, state.map().replicas(0).epoch());
    final MetadataReply last = apply(report(2, 12, 1, 1, 31, 2, 1, 69));
    assertTrue(last.getApplied(), last.getRefusal());
    final MetadataSnapshot after = last.getState();
    assertEquals(1, after.getRecoveredRound());
    assertEquals(2, state.version());
    assertEquals(List.of(
        VoidTail.newBuilder().setPartition(0).setCutEpoch(1).setCutSequence(48).setNextEpoch(2).build(),
        VoidTail.newBuilder().setPartition(1).setCutEpoch(1).setCutSequence(30).setNextEpoch(2).build(),
        VoidTail.newBuilder().setPartition(2).setCutEpoch(1).setCutSequence(69).setNextEpoch(2).build()),
        after.getVoidTailsList());
    for (int p = 0; p < 3; p++) {
      assertEquals(2, state.map().replicas(p).epoch(), "partition " + p + " serves in a new epoch");
      assertEquals(MetadataStateTest.threeHostMap().getPartitions(p).getLeaderHostId(), state.map().leaderOf(p));
    }
    assertEquals(0, after.getLogReportsCount(), "the round's reports are done with");
  }

  @Test
  void shouldDropACopyARejoinStreamGaveAndKeepTheOtherAsLeader() {
    formed();
    // Host 1 dies and rejoins: partition 0 goes to host 0 alone (epoch 2), then gets host 1 back (epoch 3).
    assertTrue(apply(MetadataStateTest.markDead(1, 2)).getApplied());
    assertTrue(apply(MetadataStateTest.register(1, 20, 5, CONFIGURATION).toBuilder()
        .setRegisterHost(MetadataStateTest.register(1, 20, 5, CONFIGURATION).getRegisterHost().toBuilder()
            .setRejoin(true)).build()).getApplied());
    final MetadataReply added = apply(MetadataCommand.newBuilder().setAddReplica(AddReplica.newBuilder()
        .setPartition(0).setExpectedEpoch(2).setHostId(1).setIncarnation(20)).build());
    assertTrue(added.getApplied(), added.getRefusal());
    assertEquals(1, added.getState().getStreamedCopiesCount());
    recoverAll();
    apply(report(0, 10, 0, 3, 5, 1, 2, 9));
    apply(report(1, 11, 0, 3, 2));
    final MetadataReply last = apply(report(2, 12, 1, 2, 9, 2, 2, 4));
    assertTrue(last.getApplied(), last.getRefusal());
    assertEquals(List.of(0), state.map().replicas(0).replicaHosts(), "host 1's copy of 0 began at a stream's cut");
    assertEquals(4, state.map().replicas(0).epoch());
    assertEquals(5, last.getState().getVoidTails(0).getCutSequence(), "cut at host 0's log alone");
    assertEquals(0, last.getState().getStreamedCopiesCount(), "the dropped copy is no longer one");
  }

  @Test
  void shouldRefuseToReconcileAPartitionEveryCopyOfWhichAStreamGave() {
    formed();
    // Partition 2 on hosts 1 and 2: both die in turn and come back by rejoin.
    apply(MetadataStateTest.markDead(1, 2));
    apply(recoverLike(MetadataStateTest.register(1, 20, 5, CONFIGURATION)));
    apply(MetadataCommand.newBuilder().setAddReplica(AddReplica.newBuilder().setPartition(2).setExpectedEpoch(2)
        .setHostId(1).setIncarnation(20)).build());
    apply(MetadataStateTest.markDead(2, 3));
    apply(recoverLike(MetadataStateTest.register(2, 30, 5, CONFIGURATION)));
    final MetadataReply added = apply(MetadataCommand.newBuilder().setAddReplica(AddReplica.newBuilder()
        .setPartition(2).setExpectedEpoch(4).setHostId(2).setIncarnation(30)).build());
    assertTrue(added.getApplied(), added.getRefusal());
    final long version = state.version();
    recoverAll();
    apply(report(0, 10, 0, 3, 1));
    apply(report(1, 11, 0, 3, 1, 2, 5, 3));
    final MetadataReply last = apply(report(2, 12, 2, 5, 3));
    assertTrue(last.getApplied());
    assertTrue(last.getState().getRecoveryFailure().contains("partition 2 cannot be rebuilt"),
        last.getState().getRecoveryFailure());
    assertEquals(version, state.version(), "nothing changed");
  }

  private static MetadataCommand recoverLike(MetadataCommand register) {
    return register.toBuilder().setRegisterHost(register.getRegisterHost().toBuilder().setRejoin(true)).build();
  }

  @Test
  void shouldNotOpenARoundForAHostWithoutCopies() {
    formed();
    apply(MetadataStateTest.markDead(2, 3));
    apply(recover(2, 30));
    final MetadataReply reply = apply(report(2, 30));
    assertTrue(reply.getApplied(), reply.getRefusal());
    assertEquals(0, reply.getState().getRecoveryRound());
  }

  @Test
  void shouldRefuseAReportOfAnOlderIncarnation() {
    formed();
    apply(recover(0, 10));
    final MetadataReply reply = apply(report(0, 1, 0, 1, 5));
    assertFalse(reply.getApplied());
    assertTrue(reply.getRefusal().contains("not registered and up"), reply.getRefusal());
  }

  @Test
  void shouldKeepTheRecoveryStateThroughASnapshot() {
    formed();
    recoverAll();
    apply(report(0, 10, 0, 1, 50, 1, 1, 30));
    final MetadataState restored = new MetadataState();
    restored.restore(state.snapshot());
    assertEquals(state.snapshot(), restored.snapshot());
  }
}
