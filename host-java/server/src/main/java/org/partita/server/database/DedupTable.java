package org.partita.server.database;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;

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
 * <p>{@link #encode} and {@link #load} carry the whole table to another copy
 * (a rejoining one) at a cut between two transactions, so that copy goes on
 * exactly as this one does (docs/cluster.md, "Client de-duplication").
 *
 * <p>Site-confined: used only on its site's thread.
 */
final class DedupTable {
  /** Records a copy keeps by default. */
  static final int DEFAULT_CAPACITY = 8 * 1024;
  /** How long (transaction time) a silent session's entry is kept by default: 10 minutes. */
  static final long DEFAULT_SESSION_EXPIRY_MICROS = 10L * 60 * 1_000_000;
  private static final int MIN_SESSION_SLOTS = 64;
  /** Longs per entry of the record index: session, sequence, ring slot + 1. */
  private static final int ENTRY = 3;
  /** The first int of {@link #encode}'s form: its version. */
  private static final int FORMAT = 1;
  /**
   * Above this many bytes of answers {@link #encode} leaves the answers out
   * (the records stay, and a copy loading them refuses such a call as of
   * unknown outcome instead of answering it): the form must fit in one
   * internal frame.
   */
  static final int MAX_ENCODED_ANSWER_BYTES = 8 << 20;
  /**
   * The bound of the form a snapshot file holds ({@link #encode(long)}):
   * a file is not one frame, so the bound is only what keeps the form one
   * byte array the site makes at the cut; beyond it the answers are left out
   * as in {@link #MAX_ENCODED_ANSWER_BYTES}'s case.
   */
  static final int MAX_FILE_ANSWER_BYTES = 256 << 20;

  private final int capacity;
  private final long sessionExpiryMicros;
  // The ring of records: slot next is written next; size records are in use.
  private final long[] ringSession;
  private final long[] ringSequence;
  private final ClientResponse[] ringOutcome;
  private int next;
  private int size;
  // (session, sequence) -> ring slot + 1 (0: empty): open addressing, linear probing. Entry i is
  // index[3i..3i+2] = {session, sequence, ring slot + 1}: a probe reads one cache line, not one per field.
  private final long[] index;
  private final int indexMask;
  /** Ring slot -> its record's entry in {@link #index} (kept as entries move), so evicting needs no probe. */
  private final int[] entryOfSlot;
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
    index = new long[slots * ENTRY];
    indexMask = slots - 1;
    entryOfSlot = new int[capacity];
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

  /**
   * The recorded answer of {@code (session, sequence)}, or null when the
   * table does not hold it or holds it without its answer (loaded from a
   * form that left answers out: {@link #MAX_ENCODED_ANSWER_BYTES}).
   */
  ClientResponse outcome(long session, long sequence) {
    final int i = find(session, sequence);
    return i < 0 ? null : ringOutcome[slotAt(i)];
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
    remove(entryOfSlot[slot]);
    ringOutcome[slot] = null;
    final int s = sessionSlot(session);
    if (sequence > forgottenThrough[s]) {
      forgottenThrough[s] = sequence;
    }
    lastWriteMicros[s] = Math.max(lastWriteMicros[s], nowMicros);
  }

  /**
   * The whole table as bytes, for {@link #load} on another copy: its
   * capacity, when it last swept, the records oldest first (session,
   * sequence, the answer's application status, message and result tables'
   * bytes), then every session's entry (forgotten through, last touch).
   * The answers are left out above {@link #MAX_ENCODED_ANSWER_BYTES} (the
   * form travels in one frame).
   */
  byte[] encode() {
    return encode(MAX_ENCODED_ANSWER_BYTES);
  }

  /**
   * As {@link #encode()}, leaving the answers out when they take more than
   * {@code maxAnswerBytes} ({@link #MAX_FILE_ANSWER_BYTES} for a snapshot
   * file).
   */
  byte[] encode(long maxAnswerBytes) {
    long answerBytes = 0;
    for (int k = 0; k < size; k++) {
      answerBytes += answerSize(ringOutcome[ringSlot(k)]);
    }
    final boolean answers = answerBytes <= maxAnswerBytes;
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + size * 24 + (answers ? (int) answerBytes : 0));
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(FORMAT);
      out.writeInt(capacity);
      out.writeLong(lastSweepMicros);
      out.writeInt(size);
      for (int k = 0; k < size; k++) {
        final int slot = ringSlot(k);
        out.writeLong(ringSession[slot]);
        out.writeLong(ringSequence[slot]);
        writeAnswer(out, answers ? ringOutcome[slot] : null);
      }
      out.writeInt(sessionCount);
      for (int i = 0; i < sessions.length; i++) {
        if (sessions[i] != 0) {
          out.writeLong(sessions[i]);
          out.writeLong(forgottenThrough[i]);
          out.writeLong(lastWriteMicros[i]);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    return bytes.toByteArray();
  }

  /**
   * Makes this table what {@code encoded} ({@link #encode} of another copy's)
   * holds. REQUIRES: this table is empty (a new copy).
   *
   * @throws IllegalArgumentException naming what is wrong when the bytes are not such a form, or
   *     another capacity's
   */
  void load(byte[] encoded) {
    if (size != 0 || sessionCount != 0) {
      throw new IllegalStateException("a de-duplication table is loaded only into an empty one");
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
      final int format = in.readInt();
      if (format != FORMAT) {
        throw new IllegalArgumentException("de-duplication table: format " + format + ", expected " + FORMAT);
      }
      final int theirs = in.readInt();
      if (theirs != capacity) {
        throw new IllegalArgumentException("de-duplication table: capacity " + theirs + ", this copy's is "
            + capacity);
      }
      lastSweepMicros = in.readLong();
      final int records = in.readInt();
      if (records < 0 || records > capacity) {
        throw new IllegalArgumentException("de-duplication table: " + records + " records, capacity " + capacity);
      }
      for (int k = 0; k < records; k++) {
        final long session = in.readLong();
        final long sequence = in.readLong();
        final ClientResponse answer = readAnswer(in, k);
        if (session == 0 || find(session, sequence) >= 0) {
          throw new IllegalArgumentException("de-duplication table: record " + k + " (" + session + "/" + sequence
              + ") is empty or repeated");
        }
        ringSession[k] = session;
        ringSequence[k] = sequence;
        ringOutcome[k] = answer;
        insert(session, sequence, k);
      }
      size = records;
      next = records == capacity ? 0 : records;
      final int entries = in.readInt();
      if (entries < 0) {
        throw new IllegalArgumentException("de-duplication table: " + entries + " sessions");
      }
      for (int j = 0; j < entries; j++) {
        final long session = in.readLong();
        if (session == 0 || findSession(session) >= 0) {
          throw new IllegalArgumentException("de-duplication table: session entry " + j + " is empty or repeated");
        }
        final int s = sessionSlot(session);
        forgottenThrough[s] = in.readLong();
        lastWriteMicros[s] = in.readLong();
      }
      if (in.read() >= 0) {
        throw new IllegalArgumentException("de-duplication table: bytes after its last session entry");
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("de-duplication table: truncated (" + e.getMessage() + ")", e);
    }
  }

  /**
   * One answer as bytes (the form {@link #encode} gives each record's),
   * for a copy that records it from an item: the answer of a
   * multi-partition call in its partition-0 decision (docs/cluster.md,
   * "Client de-duplication").
   */
  static byte[] encodeAnswer(ClientResponse answer) {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 + (int) Math.min(1 << 20, answerSize(answer)));
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      writeAnswer(out, answer);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    return bytes.toByteArray();
  }

  /**
   * The answer {@link #encodeAnswer} made {@code encoded} from (null for a
   * null answer). @throws IllegalArgumentException naming what is wrong
   */
  static ClientResponse decodeAnswer(byte[] encoded) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
      final ClientResponse answer = readAnswer(in, 0);
      if (in.read() >= 0) {
        throw new IllegalArgumentException("de-duplication answer: bytes after its last table");
      }
      return answer;
    } catch (IOException e) {
      throw new IllegalArgumentException("de-duplication answer: truncated (" + e.getMessage() + ")", e);
    }
  }

  /** The ring slot of the {@code k}-th oldest record. */
  private int ringSlot(int k) {
    final int oldest = size == capacity ? next : 0;
    final int slot = oldest + k;
    return slot >= capacity ? slot - capacity : slot;
  }

  private static long answerSize(ClientResponse answer) {
    if (answer == null) {
      return 0;
    }
    long bytes = 16 + answer.appStatusMessage().length() * 3L;
    for (ResultTable table : answer.results()) {
      bytes += 4 + table.byteSize();
    }
    return bytes;
  }

  private static void writeAnswer(DataOutputStream out, ClientResponse answer) throws IOException {
    if (answer == null) {
      out.writeByte(0);
      return;
    }
    out.writeByte(1);
    out.writeInt(answer.appStatus());
    final byte[] message = answer.appStatusMessage().getBytes(StandardCharsets.UTF_8);
    out.writeInt(message.length);
    out.write(message);
    out.writeInt(answer.results().size());
    for (ResultTable table : answer.results()) {
      final ByteBuffer copy = ByteBuffer.allocate(table.byteSize());
      table.copyTo(copy, 0);
      out.writeInt(copy.capacity());
      out.write(copy.array());
    }
  }

  private static ClientResponse readAnswer(DataInputStream in, int record) throws IOException {
    final int present = in.readByte();
    if (present == 0) {
      return null;
    }
    if (present != 1) {
      throw new IllegalArgumentException("de-duplication table: record " + record + " has answer marker " + present);
    }
    final int appStatus = in.readInt();
    final String message = new String(readBytes(in, record), StandardCharsets.UTF_8);
    final int tables = in.readInt();
    if (tables < 0 || tables > in.available()) {
      throw new IllegalArgumentException("de-duplication table: record " + record + " has " + tables + " tables");
    }
    final List<ResultTable> results = new ArrayList<>(tables);
    for (int t = 0; t < tables; t++) {
      final ByteBuffer table = ByteBuffer.wrap(readBytes(in, record)).order(ByteOrder.LITTLE_ENDIAN);
      try {
        results.add(ResultTable.read(table));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("de-duplication table: record " + record + ", table " + t + ": "
            + e.getMessage(), e);
      }
    }
    final ClientResponse answer = ClientResponse.success(results);
    return appStatus == 0 && message.isEmpty() ? answer : answer.withAppStatus(appStatus, message);
  }

  private static byte[] readBytes(DataInputStream in, int record) throws IOException {
    final int length = in.readInt();
    if (length < 0 || length > in.available()) {
      throw new IllegalArgumentException("de-duplication table: record " + record + " has a length of " + length
          + " bytes with " + in.available() + " left");
    }
    final byte[] bytes = new byte[length];
    in.readFully(bytes);
    return bytes;
  }

  // ---- the record index ----

  private static int mix(long session, long sequence) {
    long h = session * 0x9E3779B97F4A7C15L + sequence;
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    return (int) h;
  }

  /** The entry of {@code (session, sequence)} in the record index, or -1. */
  private int find(long session, long sequence) {
    for (int i = mix(session, sequence) & indexMask; index[i * ENTRY + 2] != 0; i = (i + 1) & indexMask) {
      if (index[i * ENTRY] == session && index[i * ENTRY + 1] == sequence) {
        return i;
      }
    }
    return -1;
  }

  /** The ring slot entry {@code i} of the record index points to. */
  private int slotAt(int i) {
    return (int) index[i * ENTRY + 2] - 1;
  }

  private void insert(long session, long sequence, int slot) {
    int i = mix(session, sequence) & indexMask;
    while (index[i * ENTRY + 2] != 0) {
      i = (i + 1) & indexMask;
    }
    index[i * ENTRY] = session;
    index[i * ENTRY + 1] = sequence;
    index[i * ENTRY + 2] = slot + 1;
    entryOfSlot[slot] = i;
  }

  /** Removes index entry {@code i}, shifting later entries of its cluster back (no tombstones). */
  private void remove(int i) {
    int hole = i;
    for (int j = (hole + 1) & indexMask; index[j * ENTRY + 2] != 0; j = (j + 1) & indexMask) {
      final int home = mix(index[j * ENTRY], index[j * ENTRY + 1]) & indexMask;
      // Move j into the hole unless its home lies cyclically in (hole, j].
      final boolean stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (!stays) {
        System.arraycopy(index, j * ENTRY, index, hole * ENTRY, ENTRY);
        entryOfSlot[slotAt(hole)] = hole;
        hole = j;
      }
    }
    index[hole * ENTRY + 2] = 0;
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
