package org.partita.server.cluster;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.partita.client.proto.PartitionReplicas;
import org.partita.client.proto.Topology;
import org.partita.proto.cluster.ChangeLeader;
import org.partita.proto.cluster.HostRecord;
import org.partita.proto.cluster.HostServing;
import org.partita.proto.cluster.HostState;
import org.partita.proto.cluster.InstallMap;
import org.partita.proto.cluster.MarkDead;
import org.partita.proto.cluster.MetadataCommand;
import org.partita.proto.cluster.MetadataReply;
import org.partita.proto.cluster.MetadataSnapshot;
import org.partita.proto.cluster.RegisterHost;
import org.partita.proto.cluster.ReportLog;
import org.partita.proto.cluster.StreamedCopy;
import org.partita.proto.cluster.VoidTail;
import org.partita.server.topology.PartitionMap;

/**
 * The cluster's metadata and the rules that change it (docs/cluster.md,
 * "Control plane"): the host registry (id, incarnation, addresses, UP or
 * DEAD, and the schema and configuration every host must share) and the
 * current partition map, changed only by {@link #apply} of a
 * {@link MetadataCommand}, each a compare-and-set on the map's version, a
 * partition's epoch or a host's incarnation. {@link #snapshot} and
 * {@link #restore} carry the whole state as one {@link MetadataSnapshot}
 * (Ratis snapshots, the watch). Deterministic: the same commands in
 * the same order give the same state on every voter, and a command that
 * does not hold is refused with a reason rather than thrown, so a bad
 * command never stops a voter.
 *
 * <p>Owned by one {@link MetadataStateMachine}. {@link #apply} and
 * {@link #restore} are called by Ratis on one thread at a time, in log
 * order; {@link #map} and {@link #snapshot} may be read from any thread
 * (every field is an immutable value behind a volatile reference, and
 * {@link #snapshot} reads the one {@code snapshot} field).
 */
final class MetadataState {
  private volatile PartitionMap map;
  // Host id -> record; replaced, never changed in place.
  private volatile Map<Integer, HostRecord> hosts = Map.of();
  private volatile int schemaFingerprint;
  private volatile String configuration = "";
  private volatile int hostCount;
  private volatile long appliedIndex;
  // Whole-cluster restart (RecoveryReconciliation): rounds opened and closed, the open round's reports by host,
  // the tails dropped so far, and the copies rejoin streams gave (RecoveryReconciliation.copyKey). Replaced,
  // never changed in place.
  private volatile long recoveryRound;
  private volatile long recoveredRound;
  private volatile Map<Integer, ReportLog> reports = Map.of();
  private volatile List<VoidTail> voidTails = List.of();
  private volatile Set<Long> streamed = Set.of();
  private volatile String recoveryFailure = "";
  // The whole state as last applied, for readers on other threads.
  private volatile MetadataSnapshot snapshot = MetadataSnapshot.getDefaultInstance();

  /** The current map, or null before the first {@code InstallMap}. */
  PartitionMap map() {
    return map;
  }

  /** The version of the current map; 0 before the first {@code InstallMap}. */
  long version() {
    final PartitionMap current = map;
    return current == null ? 0 : current.version();
  }

  /** The whole metadata as last applied. */
  MetadataSnapshot snapshot() {
    return snapshot;
  }

  /** Applies one committed command (the log entry's bytes, at {@code logIndex}). */
  MetadataReply apply(byte[] commandBytes, long logIndex) {
    final MetadataCommand command;
    try {
      command = MetadataCommand.parseFrom(commandBytes);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      return applied(logIndex, refused("malformed metadata command at log index " + logIndex + ": " + e.getMessage()));
    }
    final MetadataReply reply = switch (command.getCommandCase()) {
      case INSTALL_MAP -> install(command.getInstallMap());
      case CHANGE_LEADER -> changeLeader(command.getChangeLeader());
      case REGISTER_HOST -> register(command.getRegisterHost());
      case MARK_DEAD -> markDead(command.getMarkDead());
      case HOST_SERVING -> serving(command.getHostServing());
      case ADD_REPLICA -> addReplica(command.getAddReplica());
      case REPORT_LOG -> reportLog(command.getReportLog());
      case COMMAND_NOT_SET -> refused("empty metadata command at log index " + logIndex);
    };
    return applied(logIndex, reply);
  }

  /** Records that the log up to {@code logIndex} is applied and returns {@code reply} with the new state. */
  private MetadataReply applied(long logIndex, MetadataReply reply) {
    appliedIndex = Math.max(appliedIndex, logIndex);
    snapshot = buildSnapshot();
    return reply.toBuilder().setState(snapshot).build();
  }

  /** The answer to a read: the current map and state. */
  MetadataReply current() {
    return withMap(MetadataReply.newBuilder().setApplied(true)).toBuilder().setState(snapshot).build();
  }

  /**
   * Replaces the whole state with {@code saved} (a Ratis snapshot being
   * loaded). Throws IllegalArgumentException when its map is invalid: a
   * snapshot this class wrote always holds a valid one.
   */
  void restore(MetadataSnapshot saved) {
    final Map<Integer, HostRecord> restored = new TreeMap<>();
    for (HostRecord h : saved.getHostsList()) {
      restored.put(h.getHostId(), h);
    }
    map = saved.hasMap() ? fromTopology(saved.getMap(), saved.getMap().getTopologyVersion()) : null;
    hosts = Map.copyOf(restored);
    schemaFingerprint = saved.getSchemaFingerprint();
    configuration = saved.getConfiguration();
    hostCount = saved.getHostCount();
    appliedIndex = saved.getAppliedIndex();
    recoveryRound = saved.getRecoveryRound();
    recoveredRound = saved.getRecoveredRound();
    final Map<Integer, ReportLog> savedReports = new TreeMap<>();
    for (ReportLog r : saved.getLogReportsList()) {
      savedReports.put(r.getHostId(), r);
    }
    reports = Map.copyOf(savedReports);
    voidTails = List.copyOf(saved.getVoidTailsList());
    final Set<Long> copies = new TreeSet<>();
    for (StreamedCopy c : saved.getStreamedCopiesList()) {
      copies.add(RecoveryReconciliation.copyKey(c.getPartition(), c.getHostId()));
    }
    streamed = Set.copyOf(copies);
    recoveryFailure = saved.getRecoveryFailure();
    snapshot = buildSnapshot();
  }

  private MetadataSnapshot buildSnapshot() {
    final MetadataSnapshot.Builder s = MetadataSnapshot.newBuilder().setAppliedIndex(appliedIndex)
        .addAllHosts(new TreeMap<>(hosts).values()).setSchemaFingerprint(schemaFingerprint)
        .setConfiguration(configuration).setHostCount(hostCount).setRecoveryRound(recoveryRound)
        .setRecoveredRound(recoveredRound).addAllLogReports(new TreeMap<>(reports).values())
        .addAllVoidTails(voidTails).setRecoveryFailure(recoveryFailure);
    for (long copy : new TreeSet<>(streamed)) {
      s.addStreamedCopies(StreamedCopy.newBuilder().setPartition((int) (copy >>> 32)).setHostId((int) copy));
    }
    final PartitionMap current = map;
    if (current != null) {
      s.setMap(current.fill(Topology.newBuilder()));
    }
    return s.build();
  }

  private MetadataReply register(RegisterHost command) {
    if (!command.hasHost()) {
      return refused("RegisterHost without a host");
    }
    final HostRecord host = command.getHost();
    final String who = "RegisterHost for host " + host.getHostId();
    if (command.getHostCount() == 0 || host.getHostId() >= command.getHostCount()) {
      return refused(who + ": the host id is not below the host count " + command.getHostCount());
    }
    if (host.getIncarnation() == 0) {
      return refused(who + ": incarnation 0 is not a valid incarnation");
    }
    if (!configuration.isEmpty() && !configuration.equals(command.getConfiguration())) {
      return refused(who + ": its cluster configuration (" + command.getConfiguration()
          + ") differs from the cluster's (" + configuration + "): every host needs the same --cluster, "
          + "--kfactor and --sites-per-host");
    }
    if (!configuration.isEmpty() && schemaFingerprint != command.getSchemaFingerprint()) {
      return refused(who + ": its schema (fingerprint " + hex(command.getSchemaFingerprint())
          + ") differs from the cluster's (fingerprint " + hex(schemaFingerprint)
          + "): every host needs the same --schema and --classes");
    }
    final HostRecord existing = hosts.get(host.getHostId());
    if (existing != null && existing.getIncarnation() == host.getIncarnation()) {
      return withMap(MetadataReply.newBuilder().setApplied(true));
    }
    if (command.getRecover()) {
      return recoverHost(host, existing, who);
    }
    if (existing != null && existing.getState() == HostState.HOST_STATE_UP) {
      return refused(who + ": host id " + host.getHostId() + " is already registered and up (incarnation "
          + existing.getIncarnation() + ", internal address " + existing.getInternalAddress()
          + "): two processes were started with --host-id " + host.getHostId() + " (a whole cluster restarting on"
          + " its data directories starts every host with --recover)");
    }
    if (existing != null && !command.getRejoin()) {
      return refused(who + ": the host was declared dead (incarnation " + existing.getIncarnation() + "); it "
          + "returns to the running cluster only by rejoin (partita start --rejoin, scripts/cluster restart)");
    }
    if (existing == null && command.getRejoin()) {
      return refused(who + ": a rejoin, but the cluster has never registered host " + host.getHostId()
          + ": start it without --rejoin to form the cluster");
    }
    final List<Integer> lost = existing == null ? List.of() : onlyCopiesOn(host.getHostId());
    if (!lost.isEmpty()) {
      return refused(who + ": the host held the only copy of partition(s) " + lost + " when it died, so their data "
          + "is lost and no host can give it back by rejoin");
    }
    if (configuration.isEmpty()) {
      configuration = command.getConfiguration();
      schemaFingerprint = command.getSchemaFingerprint();
      hostCount = command.getHostCount();
    }
    final Map<Integer, HostRecord> next = new TreeMap<>(hosts);
    next.put(host.getHostId(), host.toBuilder().setState(HostState.HOST_STATE_UP).build());
    hosts = Map.copyOf(next);
    return withMap(MetadataReply.newBuilder().setApplied(true));
  }

  /**
   * A host of a restarting cluster registers with a new incarnation
   * (docs/cluster.md, "Durability on a cluster"): every host stopped, so its
   * earlier incarnation may still show UP; the map and the copies stay, and
   * a report of its earlier incarnation in an open round is dropped.
   */
  private MetadataReply recoverHost(HostRecord host, HostRecord existing, String who) {
    if (existing == null) {
      return refused(who + ": a recovery, but the cluster has never registered host " + host.getHostId()
          + ": a host that never ran in this cluster has nothing to recover; start the cluster without --recover");
    }
    if (map == null) {
      return refused(who + ": a recovery, but the cluster never installed its partition map: nothing ran, so there"
          + " is nothing to recover; start the cluster on empty data directories");
    }
    final Map<Integer, HostRecord> next = new TreeMap<>(hosts);
    next.put(host.getHostId(), host.toBuilder().setState(HostState.HOST_STATE_UP).setServing(false)
        .clearClientAddress().clearHttpAddress().build());
    hosts = Map.copyOf(next);
    final Map<Integer, ReportLog> left = new TreeMap<>(reports);
    left.remove(host.getHostId());
    reports = Map.copyOf(left);
    return withMap(MetadataReply.newBuilder().setApplied(true));
  }

  /**
   * A recovering host's log tails (whole-cluster restart): opens a round
   * when none is open, records the report, and once every copy reported
   * reconciles the partitions ({@link RecoveryReconciliation}) and closes
   * the round.
   */
  private MetadataReply reportLog(ReportLog report) {
    final HostRecord host = hosts.get(report.getHostId());
    final String who = "ReportLog of host " + report.getHostId();
    if (host == null || host.getIncarnation() != report.getIncarnation()
        || host.getState() != HostState.HOST_STATE_UP) {
      return refused(who + ": incarnation " + report.getIncarnation() + " of the host is not registered and up");
    }
    if (map == null) {
      return refused(who + ": no partition map installed");
    }
    if (recoveryRound == recoveredRound && !holdsAnyCopy(map, report.getHostId())) {
      // A host without copies (declared dead before the cluster stopped) has nothing to reconcile.
      return withMap(MetadataReply.newBuilder().setApplied(true));
    }
    if (recoveryRound == recoveredRound) {
      recoveryRound++;
      reports = Map.of();
      recoveryFailure = "";
    }
    final Map<Integer, ReportLog> next = new TreeMap<>(reports);
    next.put(report.getHostId(), report);
    reports = Map.copyOf(next);
    if (RecoveryReconciliation.complete(map, reports)) {
      closeRecoveryRound();
    }
    return withMap(MetadataReply.newBuilder().setApplied(true));
  }

  private void closeRecoveryRound() {
    final RecoveryReconciliation.Outcome outcome = RecoveryReconciliation.reconcile(map, reports, streamed);
    recoveredRound = recoveryRound;
    reports = Map.of();
    if (outcome.failure() != null) {
      recoveryFailure = outcome.failure();
      return;
    }
    final List<VoidTail> tails = new ArrayList<>(voidTails);
    tails.addAll(outcome.voidTails());
    voidTails = List.copyOf(tails);
    map = outcome.map();
    streamed = keptCopies(streamed, map);
  }

  private static boolean holdsAnyCopy(PartitionMap current, int host) {
    for (int p = 0; p < current.partitionCount(); p++) {
      if (current.replicas(p).replicaHosts().contains(host)) {
        return true;
      }
    }
    return false;
  }

  /** The entries of {@code copies} that {@code current} still lists. */
  private static Set<Long> keptCopies(Set<Long> copies, PartitionMap current) {
    final Set<Long> kept = new TreeSet<>();
    for (long copy : copies) {
      final int p = (int) (copy >>> 32);
      if (p < current.partitionCount() && current.replicas(p).replicaHosts().contains((int) copy)) {
        kept.add(copy);
      }
    }
    return Set.copyOf(kept);
  }

  private MetadataReply markDead(MarkDead command) {
    final HostRecord existing = hosts.get(command.getHostId());
    final String who = "MarkDead for host " + command.getHostId();
    if (existing == null) {
      return refused(who + ": no such host is registered");
    }
    if (existing.getIncarnation() != command.getIncarnation()) {
      return refused(who + " expected incarnation " + command.getIncarnation() + ", current is "
          + existing.getIncarnation());
    }
    if (existing.getState() != HostState.HOST_STATE_UP) {
      return refused(who + ": incarnation " + existing.getIncarnation() + " is already dead");
    }
    final Map<Integer, HostRecord> next = new TreeMap<>(hosts);
    next.put(existing.getHostId(), existing.toBuilder().setState(HostState.HOST_STATE_DEAD).build());
    hosts = Map.copyOf(next);
    if (map != null) {
      map = withoutHost(map, command.getHostId());
      streamed = keptCopies(streamed, map);
    }
    return withMap(MetadataReply.newBuilder().setApplied(true));
  }

  /**
   * The map after host {@code dead} died (docs/cluster.md, "Failure detection
   * and failover"): every partition with a copy on it moves to epoch + 1
   * without that copy, and one it led is led by the lowest surviving host id
   * (heartbeats do not report executed sequences yet). Every survivor of the
   * old epoch has every committed transaction, because commit needed each of
   * them. A partition whose only copy was there keeps its entry: its data is
   * gone until the host returns by rejoin. The version increases by one when
   * any partition changed; {@code current} itself when none did.
   */
  static PartitionMap withoutHost(PartitionMap current, int dead) {
    final List<PartitionMap.Replicas> partitions = new ArrayList<>(current.partitionCount());
    boolean changed = false;
    for (int p = 0; p < current.partitionCount(); p++) {
      final PartitionMap.Replicas old = current.replicas(p);
      final List<Integer> survivors = old.replicaHosts().stream().filter(h -> h != dead).toList();
      if (survivors.size() == old.replicaHosts().size() || survivors.isEmpty()) {
        partitions.add(old);
        continue;
      }
      final int leader = old.leaderHost() != dead ? old.leaderHost()
          : survivors.stream().mapToInt(Integer::intValue).min().getAsInt();
      partitions.add(new PartitionMap.Replicas(p, leader, survivors, old.epoch() + 1));
      changed = true;
    }
    return changed ? PartitionMap.of(current.version() + 1, bucketTable(current), partitions) : current;
  }

  private MetadataReply serving(HostServing command) {
    final HostRecord existing = hosts.get(command.getHostId());
    final String who = "HostServing for host " + command.getHostId();
    if (existing == null || existing.getIncarnation() != command.getIncarnation()) {
      return refused(who + ": incarnation " + command.getIncarnation() + " is not registered");
    }
    if (existing.getState() != HostState.HOST_STATE_UP) {
      return refused(who + ": incarnation " + command.getIncarnation() + " was declared dead");
    }
    final Map<Integer, HostRecord> next = new TreeMap<>(hosts);
    next.put(existing.getHostId(), existing.toBuilder().setServing(true).setClientAddress(command.getClientAddress())
        .setHttpAddress(command.getHttpAddress()).build());
    hosts = Map.copyOf(next);
    return withMap(MetadataReply.newBuilder().setApplied(true));
  }

  /**
   * A rejoined host joins partition {@code add.partition} as a copy in the
   * next epoch (docs/cluster.md, "Rejoin"); the leader stays. The rules: the
   * epoch is the current one, the host is UP in that incarnation and holds
   * no copy of it yet, and the set stays within the cluster's hosts.
   */
  private MetadataReply addReplica(org.partita.proto.cluster.AddReplica add) {
    final PartitionMap current = map;
    final String who = "AddReplica of host " + add.getHostId() + " to partition " + add.getPartition();
    if (current == null) {
      return refused(who + ": no partition map installed");
    }
    if (add.getPartition() >= current.partitionCount()) {
      return refused(who + ": the partition does not exist (the map has " + current.partitionCount() + ")");
    }
    final PartitionMap.Replicas old = current.replicas(add.getPartition());
    if (add.getExpectedEpoch() != old.epoch()) {
      return refused(who + " expected epoch " + add.getExpectedEpoch() + ", current is " + old.epoch());
    }
    final HostRecord host = hosts.get(add.getHostId());
    if (host == null || host.getIncarnation() != add.getIncarnation()
        || host.getState() != HostState.HOST_STATE_UP) {
      return refused(who + ": incarnation " + add.getIncarnation() + " of the host is not registered and up");
    }
    if (old.replicaHosts().contains(add.getHostId())) {
      return refused(who + ": the host already holds a copy (hosts " + old.replicaHosts() + ")");
    }
    if (old.replicaHosts().size() >= hostCount) {
      return refused(who + ": the partition already has a copy on each of the " + hostCount + " hosts");
    }
    final List<Integer> replicas = new ArrayList<>(old.replicaHosts());
    replicas.add(add.getHostId());
    final List<PartitionMap.Replicas> partitions = new ArrayList<>(current.partitionCount());
    for (int p = 0; p < current.partitionCount(); p++) {
      partitions.add(p == add.getPartition()
          ? new PartitionMap.Replicas(p, old.leaderHost(), replicas, old.epoch() + 1) : current.replicas(p));
    }
    map = PartitionMap.of(current.version() + 1, bucketTable(current), partitions);
    final Set<Long> copies = new TreeSet<>(streamed);
    copies.add(RecoveryReconciliation.copyKey(add.getPartition(), add.getHostId()));
    streamed = Set.copyOf(copies);
    return withMap(MetadataReply.newBuilder().setApplied(true));
  }

  /** The partitions whose only copy in the current map is on {@code host}. */
  private List<Integer> onlyCopiesOn(int host) {
    final PartitionMap current = map;
    final List<Integer> out = new ArrayList<>();
    for (int p = 0; current != null && p < current.partitionCount(); p++) {
      if (current.replicas(p).replicaHosts().equals(List.of(host))) {
        out.add(p);
      }
    }
    return out;
  }

  private static String hex(int fingerprint) {
    return String.format("%08x", fingerprint);
  }

  private MetadataReply install(InstallMap install) {
    if (install.getExpectedVersion() != version()) {
      return refused("InstallMap expected map version " + install.getExpectedVersion() + ", current is " + version());
    }
    final PartitionMap next;
    try {
      next = fromTopology(install.getMap(), install.getExpectedVersion() + 1);
    } catch (IllegalArgumentException e) {
      return refused("InstallMap: " + e.getMessage());
    }
    map = next;
    return withMap(MetadataReply.newBuilder().setApplied(true));
  }

  private MetadataReply changeLeader(ChangeLeader change) {
    final PartitionMap current = map;
    if (current == null) {
      return refused("ChangeLeader for partition " + change.getPartition() + ": no partition map installed");
    }
    if (change.getPartition() >= current.partitionCount()) {
      return refused("ChangeLeader: partition " + change.getPartition() + " does not exist (the map has "
          + current.partitionCount() + ")");
    }
    final PartitionMap.Replicas old = current.replicas(change.getPartition());
    if (change.getExpectedEpoch() != old.epoch()) {
      return refused("ChangeLeader for partition " + change.getPartition() + " expected epoch "
          + change.getExpectedEpoch() + ", current is " + old.epoch());
    }
    final String invalid = checkReplicaSet(change.getLeaderHostId(), change.getReplicaHostIdsList());
    if (invalid != null) {
      return refused("ChangeLeader for partition " + change.getPartition() + ": " + invalid);
    }
    final List<PartitionMap.Replicas> partitions = new ArrayList<>(current.partitionCount());
    for (int p = 0; p < current.partitionCount(); p++) {
      partitions.add(p == change.getPartition()
          ? new PartitionMap.Replicas(p, change.getLeaderHostId(), change.getReplicaHostIdsList(), old.epoch() + 1)
          : current.replicas(p));
    }
    map = PartitionMap.of(current.version() + 1, bucketTable(current), partitions);
    streamed = keptCopies(streamed, map);
    return withMap(MetadataReply.newBuilder().setApplied(true));
  }

  /** Null when {@code replicas} is a valid set led by {@code leader}, else why not. */
  private static String checkReplicaSet(int leader, List<Integer> replicas) {
    if (replicas.isEmpty()) {
      return "the replica set is empty";
    }
    final Set<Integer> distinct = new HashSet<>(replicas);
    if (distinct.size() != replicas.size()) {
      return "the replica set " + replicas + " names a host twice";
    }
    if (!distinct.contains(leader)) {
      return "the leader " + leader + " is not in the replica set " + replicas;
    }
    return null;
  }

  /**
   * The map {@code topology} describes, with {@code version}. Throws
   * IllegalArgumentException naming what is wrong.
   */
  static PartitionMap fromTopology(Topology topology, long version) {
    if (topology.getPartitionsCount() == 0) {
      throw new IllegalArgumentException("the map has no partitions");
    }
    final List<PartitionMap.Replicas> partitions = new ArrayList<>(topology.getPartitionsCount());
    for (int i = 0; i < topology.getPartitionsCount(); i++) {
      final PartitionReplicas r = topology.getPartitions(i);
      if (r.getPartition() != i) {
        throw new IllegalArgumentException("partition entry " + i + " names partition " + r.getPartition());
      }
      final String invalid = checkReplicaSet(r.getLeaderHostId(), r.getReplicaHostIdsList());
      if (invalid != null) {
        throw new IllegalArgumentException("partition " + i + ": " + invalid);
      }
      partitions.add(new PartitionMap.Replicas(i, r.getLeaderHostId(), r.getReplicaHostIdsList(), r.getEpoch()));
    }
    final int[] buckets = topology.getBucketPartitionsList().stream().mapToInt(Integer::intValue).toArray();
    return PartitionMap.of(version, buckets, partitions);
  }

  static int[] bucketTable(PartitionMap map) {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = map.partitionOfBucket(b);
    }
    return buckets;
  }

  private MetadataReply withMap(MetadataReply.Builder reply) {
    final PartitionMap current = map;
    if (current != null) {
      reply.setMap(current.fill(Topology.newBuilder()));
    }
    return reply.build();
  }

  private MetadataReply refused(String why) {
    return withMap(MetadataReply.newBuilder().setApplied(false).setRefusal(why));
  }
}
