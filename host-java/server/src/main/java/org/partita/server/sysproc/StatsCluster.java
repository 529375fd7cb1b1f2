package org.partita.server.sysproc;

import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.dispatch.ResponseHandler;
import org.partita.server.stats.ProcedureFigures;
import org.partita.server.stats.ProcedureStatistics;
import org.partita.server.stats.StatisticsInterval;
import org.partita.server.stats.StatisticsSnapshot;
import org.partita.server.topology.PartitionMap;

/**
 * {@code @Statistics CLUSTER}: the cluster as the host asked sees it, in four
 * tables (docs/system-procedures.md): the hosts with their state, the
 * partitions with leader, replicas and epoch, the changes this host has seen
 * (failovers: hosts declared dead, new leaders), and this host's own figures
 * (calls since start; throughput and latency over the last period of at
 * least one second, the same for every reader, so several pages reading do
 * not cut each other's periods). The interval flag does not apply. On a
 * single server the cluster is that one host.
 *
 * <p>Thread-safe: the status source is volatile, the recent period is
 * guarded by this object's monitor.
 */
final class StatsCluster implements StatisticsSelector {
  /** The shortest period the throughput and latency figures cover. */
  static final long PERIOD_NANOS = 1_000_000_000L;

  private final ProcedureStatistics statistics;
  private final StatisticsInterval interval;
  private final LongSupplier nanoClock;
  private volatile Supplier<ClusterStatus> status;
  /** The last finished period and when it ended; guarded by this. */
  private StatisticsSnapshot recent;
  private long recentEndNanos;

  /**
   * @param statistics this host's call figures
   * @param single the status of a single server, until {@link #follow} gives a cluster's
   * @param nanoClock the monotonic clock periods are measured on
   */
  StatsCluster(ProcedureStatistics statistics, Supplier<ClusterStatus> single, LongSupplier nanoClock) {
    this.statistics = statistics;
    this.interval = statistics.newInterval();
    this.nanoClock = nanoClock;
    this.status = single;
    this.recentEndNanos = nanoClock.getAsLong();
    this.recent = interval.read();
  }

  /** From now on answers from {@code cluster} (a cluster host's view). */
  void follow(Supplier<ClusterStatus> cluster) {
    this.status = cluster;
  }

  @Override
  public boolean answer(boolean sinceLastRead, ResponseHandler handler) {
    final ClusterStatus cluster = status.get();
    handler.onResponse(ClientResponse.success(List.of(hosts(cluster), partitions(cluster.map()),
        changes(cluster.changes()), figures(cluster, recentPeriod(), statistics.sinceStart().total()))));
    return true;
  }

  /** The last period of at least {@link #PERIOD_NANOS}, starting a new one when it is over. */
  private synchronized StatisticsSnapshot recentPeriod() {
    final long now = nanoClock.getAsLong();
    if (now - recentEndNanos >= PERIOD_NANOS) {
      recent = interval.read();
      recentEndNanos = now;
    }
    return recent;
  }

  static ResultTable hosts(ClusterStatus cluster) {
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("HOST_ID", ValueType.INTEGER)
        .column("STATE", ValueType.VARCHAR)
        .column("CLIENT_ADDRESS", ValueType.VARCHAR)
        .column("HTTP_ADDRESS", ValueType.VARCHAR)
        .column("INCARNATION", ValueType.BIGINT)
        .column("LEADS", ValueType.INTEGER)
        .column("COPIES", ValueType.INTEGER)
        .column("IS_THIS_HOST", ValueType.TINYINT);
    final PartitionMap map = cluster.map();
    for (ClusterStatus.Host h : cluster.hosts()) {
      int leads = 0;
      int copies = 0;
      for (int p = 0; p < map.partitionCount(); p++) {
        final PartitionMap.Replicas r = map.replicas(p);
        leads += r.leaderHost() == h.hostId() ? 1 : 0;
        copies += r.replicaHosts().contains(h.hostId()) ? 1 : 0;
      }
      table.row(h.hostId(), h.state().name(), emptyAsNull(h.clientAddress()), emptyAsNull(h.httpAddress()),
          h.incarnation(), leads, copies, Answers.flag(h.hostId() == cluster.selfHostId()));
    }
    return table.build();
  }

  static ResultTable partitions(PartitionMap map) {
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("PARTITION_ID", ValueType.INTEGER)
        .column("LEADER_HOST_ID", ValueType.INTEGER)
        .column("REPLICA_HOST_IDS", ValueType.VARCHAR)
        .column("EPOCH", ValueType.BIGINT)
        .column("TOPOLOGY_VERSION", ValueType.BIGINT);
    for (int p = 0; p < map.partitionCount(); p++) {
      final PartitionMap.Replicas r = map.replicas(p);
      table.row(p, r.leaderHost(), r.replicaHosts().stream().map(String::valueOf).collect(Collectors.joining(",")),
          r.epoch(), map.version());
    }
    return table.build();
  }

  static ResultTable changes(List<ClusterStatus.Change> changes) {
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("SEEN_AT", ValueType.TIMESTAMP)
        .column("METADATA_INDEX", ValueType.BIGINT)
        .column("TOPOLOGY_VERSION", ValueType.BIGINT)
        .column("KIND", ValueType.VARCHAR)
        .column("HOST_ID", ValueType.INTEGER)
        .column("PARTITION_ID", ValueType.INTEGER)
        .column("DESCRIPTION", ValueType.VARCHAR);
    for (ClusterStatus.Change c : changes) {
      table.row(Math.multiplyExact(c.seenAtMillis(), 1000L), c.metadataIndex(), c.topologyVersion(), c.kind(),
          c.hostId() < 0 ? null : c.hostId(), c.partition() < 0 ? null : c.partition(), c.description());
    }
    return table.build();
  }

  static ResultTable figures(ClusterStatus cluster, StatisticsSnapshot recent, ProcedureFigures sinceStart) {
    final ProcedureFigures period = recent.total();
    return new ResultTableBuilder()
        .column("HOST_ID", ValueType.INTEGER)
        .column("METADATA_INDEX", ValueType.BIGINT)
        .column("TOPOLOGY_VERSION", ValueType.BIGINT)
        .column("INVOCATIONS", ValueType.BIGINT)
        .column("THROUGHPUT_PER_SECOND", ValueType.FLOAT)
        .column("P50_LATENCY_US", ValueType.BIGINT)
        .column("P99_LATENCY_US", ValueType.BIGINT)
        .column("PERIOD_SECONDS", ValueType.FLOAT)
        .row(cluster.selfHostId(), cluster.metadataIndex(), cluster.map().version(), sinceStart.invocations(),
            recent.throughputPerSecond(), period.p50Micros(), period.p99Micros(), recent.periodNanos() / 1e9)
        .build();
  }

  private static String emptyAsNull(String text) {
    return text == null || text.isEmpty() ? null : text;
  }
}
