package org.partita.server.cluster;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.partita.proto.cluster.MarkDead;
import org.partita.proto.cluster.MetadataCommand;
import org.partita.proto.cluster.MetadataReply;
import org.partita.proto.cluster.MetadataSnapshot;

/**
 * Runs a voter's {@link FailureDetector} (docs/cluster.md, "Failure
 * detection and failover"): every {@link #TICK_MILLIS} it looks whether this
 * voter leads the metadata group (silence is counted from the election at
 * the earliest, except the previous leader's: {@link FailureDetector}) and commits {@code MarkDead} for every host the detector
 * finds due. Applying it moves the dead host's partitions to their
 * survivors in a new epoch ({@code MetadataState.withoutHost}); the hosts
 * follow through the watch. Only the metadata leader decides, and each
 * command is a compare-and-set on the host's incarnation, so a decision
 * made twice, or by a deposed leader, is refused.
 *
 * <p>Owns one daemon thread (commits block on Ratis); {@link #close} stops
 * it. The clock is the one the heartbeat table is filled with
 * ({@link System#nanoTime}).
 */
final class FailureDetection implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(FailureDetection.class.getName());
  static final long TICK_MILLIS = 100;

  private final FailureDetector detector;
  private final BooleanSupplier leading;
  /** The host leading the metadata group as this voter sees it, or -1 when it knows none. */
  private final IntSupplier leader;
  private final Supplier<MetadataSnapshot> state;
  private final Committer commit;
  private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
    final Thread t = new Thread(r, "partita-failure-detection");
    t.setDaemon(true);
    return t;
  });
  private boolean wasLeading;
  /** The last other host this voter saw leading the metadata group, or -1. */
  private int lastOtherLeader = -1;

  /** Commits one command through the metadata group. */
  interface Committer {
    MetadataReply send(MetadataCommand command) throws IOException;
  }

  FailureDetection(FailureDetector detector, BooleanSupplier leading, IntSupplier leader,
      Supplier<MetadataSnapshot> state, Committer commit) {
    this.detector = detector;
    this.leading = leading;
    this.leader = leader;
    this.state = state;
    this.commit = commit;
  }

  void start() {
    thread.scheduleWithFixedDelay(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** One look: follows this voter's leadership, then declares every host due. Never throws. */
  void tick() {
    try {
      final boolean leads = leading.getAsBoolean();
      if (!leads) {
        final int seen = leader.getAsInt();
        if (seen >= 0) {
          lastOtherLeader = seen;
        }
      }
      if (leads && !wasLeading) {
        detector.becameLeader(lastOtherLeader);
        LOG.info("failure detection: this voter leads the metadata group; hosts' silence counts from now"
            + (lastOtherLeader < 0 ? "" : ", the previous leader's (host " + lastOtherLeader + ") from its last"
            + " heartbeat"));
      } else if (!leads && wasLeading) {
        detector.lostLeadership();
      }
      wasLeading = leads;
      final List<MarkDead> due = detector.due(state.get());
      for (MarkDead dead : due) {
        declare(dead);
      }
    } catch (RuntimeException e) {
      LOG.warning("failure detection: " + e);
    }
  }

  private void declare(MarkDead dead) {
    LOG.warning("failure detection: host " + dead.getHostId() + " (incarnation " + dead.getIncarnation()
        + ") was not heard for the heartbeat timeout; declaring it dead");
    try {
      final MetadataReply reply = commit.send(MetadataCommand.newBuilder().setMarkDead(dead).build());
      if (reply.getApplied()) {
        LOG.warning("failure detection: host " + dead.getHostId() + " declared dead; partition map version "
            + reply.getMap().getTopologyVersion());
      } else {
        LOG.info("failure detection: MarkDead for host " + dead.getHostId() + " refused: " + reply.getRefusal());
      }
    } catch (IOException e) {
      LOG.warning("failure detection: could not commit MarkDead for host " + dead.getHostId() + ": "
          + e.getMessage());
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
