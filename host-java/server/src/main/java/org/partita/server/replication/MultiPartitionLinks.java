package org.partita.server.replication;

import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.logging.Logger;
import org.partita.client.proto.CallStatus;
import org.partita.proto.ErrorCode;
import org.partita.proto.cluster.ForwardedAnswer;
import org.partita.proto.cluster.ForwardedCall;
import org.partita.proto.cluster.FragmentAnswer;
import org.partita.proto.cluster.FragmentRequest;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.RemoteError;
import org.partita.server.cluster.InternalConnector;
import org.partita.server.cluster.InternalFrames;

/**
 * The internal-port messages of multi-partition transactions across hosts
 * (docs/cluster.md, "Multi-partition transactions"): the coordinator's
 * {@code FragmentRequest}s to the hosts leading the other partitions and
 * their {@code FragmentAnswer}s, and the {@code ForwardedCall}s other hosts
 * send the coordinator's host with their {@code ForwardedAnswer}s. One
 * outgoing {@link PeerLink} to every other host carries what this host
 * sends it (requests and answers alike, in the order they were made);
 * frames from peers come in on their own connections
 * ({@link #inboundHandler}). A request's future completes when its answer
 * comes; the handlers {@link #serve} installs answer the peers' requests.
 *
 * <p>An answer larger than the internal frame bound is replaced by an error
 * naming its size (the peer would otherwise close the connection). A frame
 * lost with its connection is not sent again: its request waits until the
 * map the host follows gives its partition another leader, which ends it
 * with OUTCOME_UNKNOWN (the database's {@code LeaderFollowingTransport},
 * docs/cluster.md, "When a host dies mid-transaction").
 *
 * <p>Thread-safe: requests from any thread; frames on the internal port's
 * event loop.
 */
public final class MultiPartitionLinks implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(MultiPartitionLinks.class.getName());
  /** Room left in a frame for the answer's own fields. */
  private static final int FRAME_SLACK = 1024;

  private final int selfHost;
  private final Map<Integer, PeerLink> links = new TreeMap<>();
  private final Map<Integer, Outbox> outboxes = new TreeMap<>();
  private final AtomicLong nextId = new AtomicLong();
  private final Map<Long, CompletableFuture<FragmentAnswer>> fragments = new ConcurrentHashMap<>();
  private final Map<Long, CompletableFuture<ForwardedAnswer>> forwards = new ConcurrentHashMap<>();
  private volatile BiConsumer<FragmentRequest, Consumer<FragmentAnswer>> fragmentServer;
  private volatile BiConsumer<ForwardedCall, Consumer<ForwardedAnswer>> callServer;

  /**
   * @param internalAddresses every host's internal port, by host id
   * @param connector how this host opens its connections (its own address; TLS when secured)
   * @param group the internal port's event loop
   */
  public MultiPartitionLinks(int selfHost, List<InetSocketAddress> internalAddresses, InternalConnector connector,
      EventLoopGroup group) {
    this.selfHost = selfHost;
    for (int host = 0; host < internalAddresses.size(); host++) {
      if (host != selfHost) {
        final PeerLink link = new PeerLink(host, internalAddresses.get(host), connector, group);
        final Outbox outbox = new Outbox();
        link.add(outbox);
        links.put(host, link);
        outboxes.put(host, outbox);
      }
    }
  }

  /**
   * Installs what answers the peers' requests ({@code fragments}: steps for
   * partitions this host leads; {@code calls}: calls forwarded to this
   * host), then connects to every peer.
   */
  public void serve(BiConsumer<FragmentRequest, Consumer<FragmentAnswer>> fragments,
      BiConsumer<ForwardedCall, Consumer<ForwardedAnswer>> calls) {
    this.fragmentServer = fragments;
    this.callServer = calls;
    links.values().forEach(PeerLink::start);
  }

  /** Sends {@code request} (its id set here) to {@code host}; completes with the answer. */
  public CompletableFuture<FragmentAnswer> send(int host, FragmentRequest request) {
    return ask(host, fragments, "send a step to",
        id -> InternalFrame.newBuilder().setFragmentRequest(request.toBuilder().setRequestId(id)).build());
  }

  /** Forwards {@code call} (its id set here) to {@code host}; completes with the response. */
  public CompletableFuture<ForwardedAnswer> forward(int host, ForwardedCall call) {
    return ask(host, forwards, "forward a call to",
        id -> InternalFrame.newBuilder().setForwardedCall(call.toBuilder().setRequestId(id)).build());
  }

  /** Sends the frame {@code frame} makes with a new id, waiting in {@code pending} for the answer of that id. */
  private <T> CompletableFuture<T> ask(int host, Map<Long, CompletableFuture<T>> pending, String what,
      LongFunction<InternalFrame> frame) {
    final long id = nextId.incrementAndGet();
    final CompletableFuture<T> answer = new CompletableFuture<>();
    pending.put(id, answer);
    if (!enqueue(host, frame.apply(id))) {
      pending.remove(id);
      answer.completeExceptionally(new IllegalArgumentException("no host " + host + " to " + what));
    }
    return answer;
  }

  private boolean enqueue(int host, InternalFrame frame) {
    final Outbox outbox = outboxes.get(host);
    if (outbox == null) {
      return false;
    }
    outbox.frames.add(frame);
    links.get(host).wake();
    return true;
  }

  /** A new handler for the frames of one incoming connection ({@code replication}: also its frames; may be null). */
  public ChannelHandler inboundHandler(Replication replication) {
    return new ReplicationInbound(replication, this);
  }

  /**
   * Takes one frame a peer sent. Returns null, or why it is refused (an
   * answer to nothing this host asked, a request from an unknown host): the
   * caller closes that connection.
   */
  String receive(InternalFrame frame) {
    return switch (frame.getFrameCase()) {
      case FRAGMENT_REQUEST -> request(frame.getFragmentRequest());
      case FRAGMENT_ANSWER -> complete(fragments, frame.getFragmentAnswer().getRequestId(), frame.getFragmentAnswer());
      case FORWARDED_CALL -> call(frame.getForwardedCall());
      case FORWARDED_ANSWER -> complete(forwards, frame.getForwardedAnswer().getRequestId(),
          frame.getForwardedAnswer());
      default -> "an unexpected internal frame (" + frame.getFrameCase() + ")";
    };
  }

  private String request(FragmentRequest request) {
    final int from = request.getCoordinatorHostId();
    if (!outboxes.containsKey(from)) {
      return "a fragment request from host " + from + ", which is not another host of this cluster";
    }
    fragmentServer.accept(request, answer -> enqueue(from, InternalFrame.newBuilder()
        .setFragmentAnswer(bounded(answer)).build()));
    return null;
  }

  private String call(ForwardedCall call) {
    final int from = call.getFromHostId();
    if (!outboxes.containsKey(from)) {
      return "a forwarded call from host " + from + ", which is not another host of this cluster";
    }
    callServer.accept(call, answer -> enqueue(from, InternalFrame.newBuilder()
        .setForwardedAnswer(bounded(answer)).build()));
    return null;
  }

  private static <T> String complete(Map<Long, CompletableFuture<T>> pending, long id, T answer) {
    final CompletableFuture<T> waiting = pending.remove(id);
    if (waiting == null) {
      return "an answer to request " + id + ", which this host is not waiting for";
    }
    waiting.complete(answer);
    return null;
  }

  /** {@code answer}, or an error in its place when it would not fit in one frame. */
  static FragmentAnswer bounded(FragmentAnswer answer) {
    final int size = answer.getSerializedSize();
    if (size <= InternalFrames.MAX_FRAME_BYTES - FRAME_SLACK) {
      return answer;
    }
    return FragmentAnswer.newBuilder().setRequestId(answer.getRequestId()).setError(RemoteError.newBuilder()
        .setErrorCode(ErrorCode.ERROR_CODE_BAD_REQUEST.getNumber()).setMessage("a fragment's result of " + size
            + " bytes is over the internal port's frame bound of " + InternalFrames.MAX_FRAME_BYTES + " bytes"))
        .build();
  }

  /** {@code answer}, or an error response in its place when it would not fit in one frame. */
  static ForwardedAnswer bounded(ForwardedAnswer answer) {
    final int size = answer.getSerializedSize();
    if (size <= InternalFrames.MAX_FRAME_BYTES - FRAME_SLACK) {
      return answer;
    }
    LOG.warning("multi-partition: a forwarded call's response of " + size + " bytes is over the frame bound");
    return ForwardedAnswer.newBuilder().setRequestId(answer.getRequestId())
        .setStatus(CallStatus.CALL_STATUS_GRACEFUL_FAILURE.getNumber())
        .setErrorCode(ErrorCode.ERROR_CODE_RESULT_TOO_LARGE.getNumber()).setMessage("the call ran on the"
            + " coordinator's host (its outcome stands), but its response of " + size + " bytes is over the internal"
            + " port's frame bound of " + InternalFrames.MAX_FRAME_BYTES + " bytes; ask for less")
        .build();
  }

  @Override
  public void close() {
    links.values().forEach(PeerLink::close);
  }

  /** What this host has for one peer, in the order it was made. */
  private static final class Outbox implements OutboundSource {
    final Queue<InternalFrame> frames = new ConcurrentLinkedQueue<>();

    @Override
    public InternalFrame drain(int host) {
      return frames.poll();
    }

    @Override
    public void reconnected(int host) {
      // Frames already written to a lost connection are not sent again (see the class comment).
    }
  }
}
