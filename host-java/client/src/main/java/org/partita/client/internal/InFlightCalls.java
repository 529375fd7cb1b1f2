package org.partita.client.internal;

import io.netty.util.collection.LongObjectHashMap;
import java.util.Collection;

/**
 * A connection's calls in flight by client handle. Handles are consecutive
 * numbers; an open-addressing map indexed by them directly would keep them
 * in one long cluster, and every removal would shift the whole cluster
 * (that cost half the client's I/O thread under load). Keys are therefore
 * scrambled by a multiplication with an odd constant, a bijection on longs.
 * Confined to the connection's event loop.
 */
final class InFlightCalls {
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private final LongObjectHashMap<PendingCall> calls = new LongObjectHashMap<>();

  private static long key(long handle) {
    return handle * GOLDEN;
  }

  void put(PendingCall call) {
    calls.put(key(call.handle), call);
  }

  /** The call with {@code handle}, removed; null if there is none. */
  PendingCall remove(long handle) {
    return calls.remove(key(handle));
  }

  boolean isEmpty() {
    return calls.isEmpty();
  }

  Collection<PendingCall> values() {
    return calls.values();
  }

  void clear() {
    calls.clear();
  }
}
