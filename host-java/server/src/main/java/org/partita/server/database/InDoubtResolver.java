package org.partita.server.database;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.partita.proto.ErrorCode;
import org.partita.proto.cluster.FragmentAnswer;
import org.partita.proto.cluster.FragmentRequest;
import org.partita.proto.cluster.OutcomeQuery;
import org.partita.proto.cluster.PartStateEntry;
import org.partita.proto.cluster.PartStateKind;
import org.partita.proto.cluster.PartStates;
import org.partita.proto.cluster.RemoteError;
import org.partita.proto.cluster.TxnDecision;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * Finishes the multi-partition parts a failover left in doubt
 * (docs/cluster.md, "When a host dies mid-transaction"), on one cluster
 * host. A part held prepared whose leader or coordinator is gone — a
 * replica copy promoted with a prepared part, a part led here whose
 * coordinator's host left partition 0 after asking for the prepare step —
 * is {@link #watch}ed: this host asks the cluster's coordinator (the leader
 * of partition 0 in the map it follows) for the transaction's decision
 * until it gets one, then applies it.
 *
 * <p>On the coordinator's host it answers those questions ({@link #answer}):
 * a transaction of its own coordinator by what that coordinator decided
 * ({@code MpCoordinator.decision}; undecided while it runs); one of an
 * earlier coordinator (whose host is gone) by asking every host of the map
 * what its copies hold of it and applying {@link FailoverOutcome#decide}
 * (committed on any copy: commit; prepared on every partition: commit;
 * otherwise abort), remembered so every later question gets the same
 * answer. A host that does not answer leaves the transaction undecided (it
 * is asked again).
 *
 * <p>Thread model: {@link #watch} and {@link #answer} from any thread; the
 * questions and decisions run on this resolver's thread; answers come back
 * on the transport's threads. Never blocks its caller.
 */
final class InDoubtResolver implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(InDoubtResolver.class.getName());
  /** How long one question waits for its answer. */
  static final long ASK_TIMEOUT_MILLIS = 1_000;
  /** The pause before asking again. */
  static final long RETRY_MILLIS = 100;
  /** Decisions on an earlier coordinator's transactions remembered at most. */
  static final int REMEMBERED = 4_096;

  /** The decision of this host's own coordinator on one of its transactions (null: none, or undecided). */
  interface OwnDecisions {
    /** The epoch of this host's coordinator, or 0 when this host has none. */
    long epoch();

    /** TRUE commit, FALSE abort, null undecided or unknown. */
    Boolean decision(long sequence);
  }

  private final int hostId;
  private final HostTransport transport;
  private final Supplier<PartitionMap> map;
  private final MultiPartitionParts parts;
  private final Supplier<OwnDecisions> own;
  private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
    final Thread t = new Thread(r, "partita-in-doubt");
    t.setDaemon(true);
    return t;
  });
  // Confined to the thread.
  private final Map<TxnId, Boolean> decided = new LinkedHashMap<>(64, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<TxnId, Boolean> eldest) {
      return size() > REMEMBERED;
    }
  };
  private volatile boolean closed;

  /**
   * @param transport to the other hosts (not following leaders: a question goes to a host, not a partition)
   * @param map the map this host follows
   * @param own this host's coordinator's decisions, as it is now
   */
  InDoubtResolver(int hostId, HostTransport transport, Supplier<PartitionMap> map, MultiPartitionParts parts,
      Supplier<OwnDecisions> own) {
    this.hostId = hostId;
    this.transport = transport;
    this.map = map;
    this.parts = parts;
    this.own = own;
  }

  /**
   * Asks the cluster's coordinator for {@code txn}'s decision until it
   * has one, then gives it to {@code apply} (true: commit), once, on this
   * resolver's thread. {@code what} names the part for the log.
   */
  void watch(TxnId txn, String what, Consumer<Boolean> apply) {
    LOG.warning("multi-partition: " + what + " of transaction " + txn + " is prepared and its outcome unknown here;"
        + " asking the cluster's coordinator");
    // After a pause: the host follows the new map just after promoting its copies.
    schedule(() -> ask(txn, what, apply), RETRY_MILLIS);
  }

  private void ask(TxnId txn, String what, Consumer<Boolean> apply) {
    final int coordinator = map.get().leaderOf(0);
    final CompletableFuture<TxnDecision> answer = coordinator == hostId ? decide(txn)
        : transport.send(coordinator, query(txn, true)).thenApply(a -> a.hasDecision() ? a.getDecision()
            : TxnDecision.TXN_DECISION_UNDECIDED);
    answer.orTimeout(ASK_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS).whenComplete((decision, failure) -> {
      if (failure == null && decision == TxnDecision.TXN_DECISION_COMMIT
          || failure == null && decision == TxnDecision.TXN_DECISION_ABORT) {
        final boolean commit = decision == TxnDecision.TXN_DECISION_COMMIT;
        schedule(() -> {
          LOG.warning("multi-partition: " + what + " of transaction " + txn + " is " + (commit ? "committed"
              : "rolled back") + " as host " + coordinator + " (the coordinator) decided");
          apply.accept(commit);
        }, 0);
      } else {
        schedule(() -> ask(txn, what, apply), RETRY_MILLIS);
      }
    });
  }

  /**
   * Answers an outcome question another host sent ({@code request.outcome}):
   * the decision when this host coordinates, else the states of the parts
   * its copies hold. {@code answer} gets it exactly once, on any thread.
   */
  void answer(FragmentRequest request, Consumer<FragmentAnswer> answer) {
    final TxnId txn;
    try {
      txn = TxnHeader.fromProto(request.getTransaction()).id();
    } catch (RuntimeException e) {
      answer.accept(FragmentAnswer.newBuilder().setRequestId(request.getRequestId()).setError(RemoteError.newBuilder()
          .setErrorCode(ErrorCode.ERROR_CODE_BAD_REQUEST.getNumber()).setMessage("an outcome question without a"
              + " valid transaction id: " + e.getMessage())).build());
      return;
    }
    if (!request.getOutcome().getDecide()) {
      answer.accept(FragmentAnswer.newBuilder().setRequestId(request.getRequestId()).setStates(states(txn)).build());
      return;
    }
    if (map.get().leaderOf(0) != hostId) {
      answer.accept(FragmentAnswer.newBuilder().setRequestId(request.getRequestId()).setError(RemoteError.newBuilder()
          .setErrorCode(ErrorCode.ERROR_CODE_NOT_LEADER.getNumber()).setMessage("host " + hostId + " does not"
              + " coordinate multi-partition transactions")).build());
      return;
    }
    decide(txn).orTimeout(ASK_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS).whenComplete((decision, failure) ->
        answer.accept(FragmentAnswer.newBuilder().setRequestId(request.getRequestId()).setDecision(failure != null
            ? TxnDecision.TXN_DECISION_UNDECIDED : decision).build()));
  }

  /** This host's copies' parts of {@code txn}. */
  private PartStates states(TxnId txn) {
    final PartStates.Builder out = PartStates.newBuilder();
    for (MultiPartitionParts.PartOnCopy part : parts.states(txn)) {
      out.addParts(PartStateEntry.newBuilder().setPartition(part.partition()).setState(kind(part.state())));
    }
    return out.build();
  }

  /** The decision on {@code txn} as this host, the coordinator's, knows or makes it. */
  private CompletableFuture<TxnDecision> decide(TxnId txn) {
    final OwnDecisions coordinator = own.get();
    if (coordinator != null && coordinator.epoch() == txn.epoch()) {
      final Boolean decision = coordinator.decision(txn.sequence());
      return CompletableFuture.completedFuture(decision == null ? TxnDecision.TXN_DECISION_UNDECIDED
          : decision ? TxnDecision.TXN_DECISION_COMMIT : TxnDecision.TXN_DECISION_ABORT);
    }
    final PartitionMap now = map.get();
    final long epoch = coordinator != null ? coordinator.epoch() : now.replicas(0).epoch();
    if (txn.epoch() >= epoch) {
      return CompletableFuture.completedFuture(TxnDecision.TXN_DECISION_UNDECIDED);
    }
    final CompletableFuture<TxnDecision> out = new CompletableFuture<>();
    schedule(() -> decideEarlier(txn, now, out), 0);
    return out;
  }

  /** Decides a transaction of an earlier coordinator from what every host's copies hold. On the thread. */
  private void decideEarlier(TxnId txn, PartitionMap now, CompletableFuture<TxnDecision> out) {
    final Boolean known = decided.get(txn);
    if (known != null) {
      out.complete(known ? TxnDecision.TXN_DECISION_COMMIT : TxnDecision.TXN_DECISION_ABORT);
      return;
    }
    final TreeSet<Integer> hosts = new TreeSet<>();
    for (int p = 0; p < now.partitionCount(); p++) {
      hosts.addAll(now.replicas(p).replicaHosts());
      hosts.add(now.leaderOf(p));
    }
    final List<CompletableFuture<PartStates>> asked = new ArrayList<>();
    for (int host : hosts) {
      asked.add(host == hostId ? CompletableFuture.completedFuture(states(txn))
          : transport.send(host, query(txn, false)).thenApply(a -> {
            if (!a.hasStates()) {
              throw new IllegalStateException("host " + host + " answered " + a.getOutcomeCase());
            }
            return a.getStates();
          }).orTimeout(ASK_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS));
    }
    CompletableFuture.allOf(asked.toArray(new CompletableFuture<?>[0])).whenComplete((ignored, failure) -> {
      if (failure != null) {
        out.complete(TxnDecision.TXN_DECISION_UNDECIDED);
        return;
      }
      schedule(() -> out.complete(record(txn, now, asked.stream().map(CompletableFuture::join).toList())), 0);
    });
  }

  /** Applies the rule to the hosts' answers and remembers the decision (the first one made stands). On the thread. */
  private TxnDecision record(TxnId txn, PartitionMap now, List<PartStates> answers) {
    final Boolean earlier = decided.get(txn);
    final boolean commit;
    if (earlier != null) {
      commit = earlier;
    } else {
      commit = FailoverOutcome.decide(strongest(answers).values(), now.partitionCount())
          == FailoverOutcome.Decision.COMMIT;
      decided.put(txn, commit);
      LOG.warning("multi-partition: transaction " + txn + " of an earlier coordinator is " + (commit ? "committed"
          : "rolled back") + " on every partition, by what the surviving copies hold: " + answers);
    }
    return commit ? TxnDecision.TXN_DECISION_COMMIT : TxnDecision.TXN_DECISION_ABORT;
  }

  /**
   * Per partition, the state that decides the most among its copies':
   * committed, then rolled back (a coordinator decided), then prepared,
   * then open.
   */
  static Map<Integer, FailoverOutcome.PartState> strongest(List<PartStates> answers) {
    final Map<Integer, FailoverOutcome.PartState> out = new HashMap<>();
    for (PartStates answer : answers) {
      for (PartStateEntry entry : answer.getPartsList()) {
        final FailoverOutcome.PartState state = state(entry.getState());
        if (state != null) {
          out.merge(entry.getPartition(), state, (a, b) -> rank(a) >= rank(b) ? a : b);
        }
      }
    }
    return out;
  }

  private static int rank(FailoverOutcome.PartState state) {
    return switch (state) {
      case COMMITTED -> 3;
      case ROLLED_BACK -> 2;
      case PREPARED -> 1;
      case OPEN -> 0;
    };
  }

  static PartStateKind kind(FailoverOutcome.PartState state) {
    return switch (state) {
      case COMMITTED -> PartStateKind.PART_STATE_COMMITTED;
      case PREPARED -> PartStateKind.PART_STATE_PREPARED;
      case OPEN -> PartStateKind.PART_STATE_OPEN;
      case ROLLED_BACK -> PartStateKind.PART_STATE_ROLLED_BACK;
    };
  }

  /** The state a host reported, or null for none (or one this version does not know). */
  static FailoverOutcome.PartState state(PartStateKind kind) {
    return switch (kind) {
      case PART_STATE_COMMITTED -> FailoverOutcome.PartState.COMMITTED;
      case PART_STATE_PREPARED -> FailoverOutcome.PartState.PREPARED;
      case PART_STATE_OPEN -> FailoverOutcome.PartState.OPEN;
      case PART_STATE_ROLLED_BACK -> FailoverOutcome.PartState.ROLLED_BACK;
      default -> null;
    };
  }

  private FragmentRequest query(TxnId txn, boolean decide) {
    return FragmentRequest.newBuilder().setCoordinatorHostId(hostId).setPartition(0)
        .setTransaction(new TxnHeader(txn, 0, 0, 0).toProto()).setOutcome(OutcomeQuery.newBuilder().setDecide(decide))
        .build();
  }

  private void schedule(Runnable task, long delayMillis) {
    if (closed) {
      return;
    }
    try {
      thread.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // Closing.
    }
  }

  @Override
  public void close() {
    closed = true;
    thread.shutdownNow();
  }
}
