package org.partita.server.database;

import org.partita.client.ClientResponse;

/**
 * A partition copy's record of the recent calls of client sessions that
 * changed it, with their answers (docs/cluster.md, "Client
 * de-duplication"): a call sent again with the same (session, sequence)
 * after its outcome was unknown is answered from here instead of running
 * twice.
 *
 * <p>The table is part of the copy's state: it changes only when the copy
 * runs a call that wrote (the leader as it runs it, each replica as it runs
 * the leader's item, recovery as it replays the log), always in the
 * partition's order and from nothing but the item and its header, so every
 * copy holds the same table, a new leader after a failover finds what the
 * old one recorded, and replaying the log rebuilds it.
 *
 * <p>Bounds, all deterministic:
 * <ul>
 * <li>at most {@code capacity} records per copy, in a ring: the oldest
 *     record leaves when a new one comes (first in, first out over every
 *     session, so a busy client cannot keep another's records longer);</li>
 * <li>for each session, the highest sequence whose record left the ring
 *     ("forgotten through"): a call at or below it that is not in the
 *     ring may have run and is refused, never run again;</li>
 * <li>a session's entry is dropped once neither a call of it wrote here
 *     nor a record of it left the ring for {@code sessionExpiryMicros} of
 *     the partition's transaction time (header timestamps, the same on
 *     every copy): a call sent again that much later is taken as new.</li>
 * </ul>
 * Steady state allocates nothing: the ring and its index are arrays made
 * once; the session index grows by doubling when more sessions write than
 * it holds, and is rebuilt when expired sessions are swept (at most once
 * per half expiry).
 *
 * <p>Site-confined: used only on its site's thread.
 */
final class DedupTable {
  /** Records a copy keeps by default. */
  static final int DEFAULT_CAPACITY = 8 * 1024;
  /** How long (transaction time) a silent session's entry is kept by default: 10 minutes. */
  static final long DEFAULT_SESSION_EXPIRY_MICROS = 10L * 60 * 1_000_000;
  private static final int MIN_SESSION_SLOTS = 64;

  private final int capacity;
  private final long sessionExpiryMicros;
  // The ring of records: slot next is written next; size records are in use.
  private final long[] ringSession;
  private final long[] ringSequence;
  private final ClientResponse[] ringOutcome;
  private int next;
  private int size;
  // (session, sequence) -> ring slot + 1 (0: empty): open addressing, linear probing.
  private final long[] indexSession;
  private final long[] indexSequence;
  private final int[] indexSlot;
  private final int indexMask;
  // session -> forgotten-through and last touch (a write, or a record of it leaving the ring); 0: an empty slot.
  private long[] sessions;
  private long[] forgottenThrough;
  private long[] lastWriteMicros;
  private int sessionCount;
  private long lastSweepMicros;

  DedupTable() {
    this(DEFAULT_CAPACITY, DEFAULT_SESSION_EXPIRY_MICROS);
  }

  /** REQUIRES: {@code capacity >= 1}, {@code sessionExpiryMicros >= 1}. */
  DedupTable(int capacity, long sessionExpiryMicros) {
    if (capacity < 1 || sessionExpiryMicros < 1) {
      throw new IllegalArgumentException("capacity " + capacity + " and expiry " + sessionExpiryMicros
          + " µs must be positive");
    }
    this.capacity = capacity;
    this.sessionExpiryMicros = sessionExpiryMicros;
    ringSession = new long[capacity];
    ringSequence = new long[capacity];
    ringOutcome = new ClientResponse[capacity];
    final int slots = Integer.highestOneBit(capacity * 2 - 1) * 2;
    indexSession = new long[slots];
    indexSequence = new long[slots];
    indexSlot = new int[slots];
    indexMask = slots - 1;
    newSessions(MIN_SESSION_SLOTS);
  }

  /** What a call of {@code session} with {@code sequence} is to this copy. */
  enum Seen {
    /** Never recorded here: run it. */
    NEW,
    /** Recorded: answer {@link #outcome}. */
    RECORDED,
    /** It may have run, but its record left the table: refuse it. */
    FORGOTTEN
  }

  /** What {@code (session, sequence)} is to this table. */
  Seen seen(long session, long sequence) {
    if (find(session, sequence) >= 0) {
      return Seen.RECORDED;
    }
    final int s = findSession(session);
    return s >= 0 && sequence <= forgottenThrough[s] ? Seen.FORGOTTEN : Seen.NEW;
  }

  /** The recorded answer of {@code (session, sequence)}, or null. */
  ClientResponse outcome(long session, long sequence) {
    final int i = find(session, sequence);
    return i < 0 ? null : ringOutcome[indexSlot[i] - 1];
  }

  /**
   * Records that the call {@code (session, sequence)} wrote and was answered
   * {@code outcome}, at transaction time {@code timestampMicros} (its
   * header's). REQUIRES: {@code session != 0}; not recorded yet.
   */
  void record(long session, long sequence, ClientResponse outcome, long timestampMicros) {
    if (size == capacity) {
      evict(next, timestampMicros);
    } else {
      size++;
    }
    ringSession[next] = session;
    ringSequence[next] = sequence;
    ringOutcome[next] = outcome;
    insert(session, sequence, next);
    next = next + 1 == capacity ? 0 : next + 1;
    final int s = sessionSlot(session);
    lastWriteMicros[s] = timestampMicros;
    if (timestampMicros - lastSweepMicros >= sessionExpiryMicros / 2) {
      sweep(timestampMicros);
    }
  }

  /** Records held now. */
  int size() {
    return size;
  }

  /** Sessions with an entry now (recent writers, or sessions whose records left the ring). */
  int sessions() {
    return sessionCount;
  }

  int capacity() {
    return capacity;
  }

  /** Drops the record in {@code slot}; its session remembers it for an expiry from {@code nowMicros}. */
  private void evict(int slot, long nowMicros) {
    final long session = ringSession[slot];
    final long sequence = ringSequence[slot];
    remove(find(session, sequence));
    ringOutcome[slot] = null;
    final int s = sessionSlot(session);
    if (sequence > forgottenThrough[s]) {
      forgottenThrough[s] = sequence;
    }
    lastWriteMicros[s] = Math.max(lastWriteMicros[s], nowMicros);
  }

  // ---- the record index ----

  private static int mix(long session, long sequence) {
    long h = session * 0x9E3779B97F4A7C15L + sequence;
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    return (int) h;
  }

  private int find(long session, long sequence) {
    for (int i = mix(session, sequence) & indexMask; indexSlot[i] != 0; i = (i + 1) & indexMask) {
      if (indexSession[i] == session && indexSequence[i] == sequence) {
        return i;
      }
    }
    return -1;
  }

  private void insert(long session, long sequence, int slot) {
    int i = mix(session, sequence) & indexMask;
    while (indexSlot[i] != 0) {
      i = (i + 1) & indexMask;
    }
    indexSession[i] = session;
    indexSequence[i] = sequence;
    indexSlot[i] = slot + 1;
  }

  /** Removes index entry {@code i}, shifting later entries of its cluster back (no tombstones). */
  private void remove(int i) {
    int hole = i;
    for (int j = (hole + 1) & indexMask; indexSlot[j] != 0; j = (j + 1) & indexMask) {
      final int home = mix(indexSession[j], indexSequence[j]) & indexMask;
      // Move j into the hole unless its home lies cyclically in (hole, j].
      final boolean stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (!stays) {
        indexSession[hole] = indexSession[j];
        indexSequence[hole] = indexSequence[j];
        indexSlot[hole] = indexSlot[j];
        hole = j;
      }
    }
    indexSlot[hole] = 0;
  }

  // ---- the session index ----

  private static int mixSession(long session) {
    return mix(session, 0x5EED);
  }

  private int findSession(long session) {
    final int mask = sessions.length - 1;
    for (int i = mixSession(session) & mask; sessions[i] != 0; i = (i + 1) & mask) {
      if (sessions[i] == session) {
        return i;
      }
    }
    return -1;
  }

  /** The slot of {@code session}, made (forgotten through 0) when absent. */
  private int sessionSlot(long session) {
    final int found = findSession(session);
    if (found >= 0) {
      return found;
    }
    if ((sessionCount + 1) * 2 > sessions.length) {
      rebuildSessions(sessions.length * 2, Long.MIN_VALUE);
    }
    final int mask = sessions.length - 1;
    int i = mixSession(session) & mask;
    while (sessions[i] != 0) {
      i = (i + 1) & mask;
    }
    sessions[i] = session;
    forgottenThrough[i] = 0;
    lastWriteMicros[i] = Long.MIN_VALUE;
    sessionCount++;
    return i;
  }

  /** Drops the entries of sessions untouched since {@code nowMicros - sessionExpiryMicros}. */
  private void sweep(long nowMicros) {
    lastSweepMicros = nowMicros;
    int expired = 0;
    for (int i = 0; i < sessions.length; i++) {
      if (sessions[i] != 0 && lastWriteMicros[i] < nowMicros - sessionExpiryMicros) {
        expired++;
      }
    }
    if (expired > 0) {
      rebuildSessions(Math.max(MIN_SESSION_SLOTS, Integer.highestOneBit(Math.max(1, sessionCount - expired)) * 4),
          nowMicros - sessionExpiryMicros);
    }
  }

  /**
   * Makes a session index of {@code slots} slots holding the current
   * entries whose last write is at or after {@code keepSinceMicros}.
   * An expired session's records may still be in the ring (a quiet
   * partition keeps records long): it is dropped only when its last write
   * is that old, and its records, found by the record index, leave the
   * ring later as any others (their session's entry is made again then).
   */
  private void rebuildSessions(int slots, long keepSinceMicros) {
    final long[] oldSessions = sessions;
    final long[] oldForgotten = forgottenThrough;
    final long[] oldLast = lastWriteMicros;
    newSessions(slots);
    final int mask = slots - 1;
    for (int j = 0; j < oldSessions.length; j++) {
      if (oldSessions[j] == 0 || oldLast[j] < keepSinceMicros) {
        continue;
      }
      int i = mixSession(oldSessions[j]) & mask;
      while (sessions[i] != 0) {
        i = (i + 1) & mask;
      }
      sessions[i] = oldSessions[j];
      forgottenThrough[i] = oldForgotten[j];
      lastWriteMicros[i] = oldLast[j];
      sessionCount++;
    }
  }

  private void newSessions(int slots) {
    sessions = new long[slots];
    forgottenThrough = new long[slots];
    lastWriteMicros = new long[slots];
    sessionCount = 0;
  }
}
