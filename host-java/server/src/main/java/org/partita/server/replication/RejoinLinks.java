package org.partita.server.replication;

import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;
import org.partita.proto.cluster.InternalFrame;

/**
 * One host's rejoin streams and sessions (docs/cluster.md, "Rejoin"), by
 * partition: the {@link RejoinStream} of each partition it leads and
 * streams to a joining host, the {@link RejoinSession} of each partition it
 * is joining; and the rejoin frames of the internal port handed to them.
 * A joining host's sessions are made on the first {@code RejoinStart} of
 * their partition by the factory the host gives ({@link #acceptSessions}).
 *
 * <p>Thread-safe: the frames come on the internal port's event loop, the
 * host's follower and the sites add and end streams.
 */
public final class RejoinLinks {
  private final Map<Integer, RejoinStream> streams = new HashMap<>();
  private final Map<Integer, RejoinSession> sessions = new HashMap<>();
  private volatile IntFunction<RejoinSession> sessionFactory;

  /** From now on a leader's stream of a partition this host has no session for opens one made by {@code factory}. */
  public void acceptSessions(IntFunction<RejoinSession> factory) {
    sessionFactory = factory;
  }

  /** Adds {@code stream}, ending the partition's earlier one; always true. */
  synchronized boolean put(RejoinStream stream) {
    final RejoinStream old = streams.put(stream.start().getPartition(), stream);
    if (old != null && old != stream) {
      old.end("a new stream of partition " + stream.start().getPartition() + " began");
    }
    return true;
  }

  /** Adds {@code session}; false when the partition has it already. */
  synchronized boolean put(RejoinSession session) {
    return sessions.putIfAbsent(session.partition(), session) == null;
  }

  /** The partition's current stream (this host leads it and streams it to a joining host), or null. */
  public synchronized RejoinStream stream(int partition) {
    return streams.get(partition);
  }

  /** Forgets {@code stream} if it is still the partition's. */
  public synchronized void remove(RejoinStream stream) {
    streams.remove(stream.start().getPartition(), stream);
  }

  /** The partition's session (this host is joining it), or null. */
  public synchronized RejoinSession session(int partition) {
    return sessions.get(partition);
  }

  /** Forgets the partition's session (its copy is an ordinary replica now). */
  public synchronized void removeSession(int partition) {
    sessions.remove(partition);
  }

  /** Hands one rejoin frame to its stream or session; returns null, or why it is refused. */
  String receive(InternalFrame frame) {
    return switch (frame.getFrameCase()) {
      case REJOIN_START -> start(frame);
      case REJOIN_CHUNK -> {
        final RejoinSession session = session(frame.getRejoinChunk().getPartition());
        yield session == null ? noSession(frame.getRejoinChunk().getPartition())
            : session.chunk(frame.getRejoinChunk());
      }
      case REJOIN_ITEMS -> {
        final RejoinSession session = session(frame.getRejoinItems().getPartition());
        yield session == null ? noSession(frame.getRejoinItems().getPartition())
            : session.items(frame.getRejoinItems());
      }
      case REJOIN_PROGRESS -> {
        final RejoinStream stream = stream(frame.getRejoinProgress().getPartition());
        yield stream == null ? null : stream.progress(frame.getRejoinProgress());
      }
      default -> "an unexpected rejoin frame (" + frame.getFrameCase() + ")";
    };
  }

  private String start(InternalFrame frame) {
    final int partition = frame.getRejoinStart().getPartition();
    RejoinSession session = session(partition);
    final IntFunction<RejoinSession> factory = sessionFactory;
    if (session == null && factory != null) {
      session = factory.apply(partition);
    }
    if (session == null) {
      return "a rejoin stream of partition " + partition + ", but this host is not joining it";
    }
    return session.start(frame.getRejoinStart());
  }

  private static String noSession(int partition) {
    return "a rejoin frame of partition " + partition + ", which this host is not joining";
  }
}
