package org.partita.server.replication;

/**
 * Entries numbered by consecutive sequences, oldest first, in a growable
 * circular array: add at the end, look up by sequence, remove from the
 * front. What a leader keeps until every replica acknowledged it, and a
 * replica's repair log. Not thread-safe: its owner guards it.
 */
final class SequenceRing<T> {
  private Object[] items = new Object[64];
  private int head;
  private int size;
  private long firstSequence;

  /** Adds {@code item} as {@code sequence}, which must follow the last one (any sequence when empty). */
  void add(long sequence, T item) {
    if (size > 0 && sequence != firstSequence + size) {
      throw new IllegalArgumentException("sequence " + sequence + " does not follow " + (firstSequence + size - 1));
    }
    if (size == 0) {
      firstSequence = sequence;
      head = 0;
    }
    if (size == items.length) {
      grow();
    }
    items[(head + size) & (items.length - 1)] = item;
    size++;
  }

  /** The entry of {@code sequence}. REQUIRES: {@link #contains}. */
  @SuppressWarnings("unchecked")
  T get(long sequence) {
    if (!contains(sequence)) {
      throw new IllegalArgumentException("sequence " + sequence + " is not held (" + this + ")");
    }
    return (T) items[(head + (int) (sequence - firstSequence)) & (items.length - 1)];
  }

  boolean contains(long sequence) {
    return size > 0 && sequence >= firstSequence && sequence < firstSequence + size;
  }

  /** Removes and returns the oldest entry. REQUIRES: not empty. */
  @SuppressWarnings("unchecked")
  T removeFirst() {
    if (size == 0) {
      throw new IllegalStateException("empty");
    }
    final T item = (T) items[head];
    items[head] = null;
    head = (head + 1) & (items.length - 1);
    size--;
    firstSequence++;
    return item;
  }

  /** The sequence of the oldest entry (meaningful when not empty). */
  long firstSequence() {
    return firstSequence;
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** Drops every entry. */
  void clear() {
    while (size > 0) {
      removeFirst();
    }
  }

  private void grow() {
    final Object[] bigger = new Object[items.length * 2];
    for (int i = 0; i < size; i++) {
      bigger[i] = items[(head + i) & (items.length - 1)];
    }
    items = bigger;
    head = 0;
  }

  @Override
  public String toString() {
    return size == 0 ? "empty" : "sequences " + firstSequence + " to " + (firstSequence + size - 1);
  }
}
