package org.partita.bench.kv;

import java.util.Arrays;

/**
 * What the driver knows about its own writes, key by key: which of its
 * acknowledged puts may hold the key's current value.
 *
 * <p>A put P certainly precedes a put Q when P's answer arrived before Q was
 * sent. The current value of a key must then come from an acknowledged put
 * that certainly precedes no other acknowledged put: with {@code S} the
 * latest send time among the key's acknowledged puts, the candidates are the
 * puts acknowledged at or after {@code S}. Puts issued one after another
 * leave one candidate; overlapping puts to the same key (several threads, or
 * many calls in flight) leave each of them, since their order on the server
 * is not known to the driver. A put whose outcome is unknown (a client-side
 * failure: timeout, lost connection) makes its key unverifiable. Puts
 * answered with a failure status did not commit and are not recorded.
 *
 * <p>Memory: about 100 bytes per key. Thread model: thread-safe; each
 * key's record is guarded by its own monitor.
 */
public final class WriteLog {
  private final KeyWrites[] keys;

  public WriteLog(int keyCount) {
    keys = new KeyWrites[keyCount];
    for (int i = 0; i < keyCount; i++) {
      keys[i] = new KeyWrites();
    }
  }

  /** Records that put {@code sequence} on {@code key}, sent at {@code sentNanos}, was answered SUCCESS at {@code ackNanos}. */
  public void acknowledged(int key, long sequence, long sentNanos, long ackNanos) {
    final KeyWrites w = keys[key];
    synchronized (w) {
      w.acknowledged(sequence, sentNanos, ackNanos);
    }
  }

  /** Records that a put on {@code key} may or may not have committed. */
  public void outcomeUnknown(int key) {
    final KeyWrites w = keys[key];
    synchronized (w) {
      w.uncertain = true;
    }
  }

  /** The sequence numbers one of which {@code key} must hold, or null when unverifiable or never written. */
  public long[] candidates(int key) {
    final KeyWrites w = keys[key];
    synchronized (w) {
      return w.uncertain || w.count == 0 ? null : Arrays.copyOf(w.sequences, w.count);
    }
  }

  /** Whether a put on {@code key} had an unknown outcome. */
  public boolean isUncertain(int key) {
    final KeyWrites w = keys[key];
    synchronized (w) {
      return w.uncertain;
    }
  }

  /** When the last acknowledged put on {@code key} was answered (System.nanoTime), or Long.MIN_VALUE. */
  public long lastAcknowledgedNanos(int key) {
    final KeyWrites w = keys[key];
    synchronized (w) {
      return w.lastAck;
    }
  }

  public int keyCount() {
    return keys.length;
  }

  /** One key's candidate puts. Guarded by its own monitor. */
  private static final class KeyWrites {
    private long latestSent = Long.MIN_VALUE;
    private long lastAck = Long.MIN_VALUE;
    private boolean uncertain;
    private long[] sequences = new long[1];
    private long[] acks = new long[1];
    private int count;

    void acknowledged(long sequence, long sentNanos, long ackNanos) {
      if (sentNanos > latestSent) {
        latestSent = sentNanos;
        dropAckedBefore(sentNanos);
      }
      add(sequence, ackNanos);
      lastAck = Math.max(lastAck, ackNanos);
    }

    /** Forgets the puts answered before {@code nanos}: they certainly precede the put sent then. */
    private void dropAckedBefore(long nanos) {
      int kept = 0;
      for (int i = 0; i < count; i++) {
        if (acks[i] >= nanos) {
          sequences[kept] = sequences[i];
          acks[kept] = acks[i];
          kept++;
        }
      }
      count = kept;
    }

    private void add(long sequence, long ackNanos) {
      if (count == sequences.length) {
        sequences = Arrays.copyOf(sequences, count * 2);
        acks = Arrays.copyOf(acks, count * 2);
      }
      sequences[count] = sequence;
      acks[count] = ackNanos;
      count++;
    }
  }
}
