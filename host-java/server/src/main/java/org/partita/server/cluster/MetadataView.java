package org.partita.server.cluster;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.partita.proto.cluster.MetadataSnapshot;

/**
 * The newest metadata this host has seen, from its own voter or from the
 * watch on the internal port: an offered snapshot replaces the current one
 * only when its applied index is higher, so updates from several voters,
 * in any order, never move the view back; every listener hears each newer
 * one (a host following failovers, the cluster page's history). Thread-safe
 * (monitor; the listeners in a copy-on-write list).
 */
public final class MetadataView {
  private MetadataSnapshot current = MetadataSnapshot.getDefaultInstance();
  private final List<Consumer<MetadataSnapshot>> listeners = new CopyOnWriteArrayList<>();

  /** Takes {@code snapshot} if newer than the current one, and tells every listener. */
  public void offer(MetadataSnapshot snapshot) {
    synchronized (this) {
      if (snapshot.getAppliedIndex() <= current.getAppliedIndex()) {
        return;
      }
      current = snapshot;
      notifyAll();
    }
    for (Consumer<MetadataSnapshot> listener : listeners) {
      listener.accept(snapshot);
    }
  }

  /**
   * Adds {@code onNewer}, called with every newer metadata taken from now on (on the
   * thread that offered it: an event loop or Ratis's state-machine thread;
   * it must not block). Snapshots may reach it out of order when offered
   * concurrently: compare applied indexes.
   */
  public void listen(Consumer<MetadataSnapshot> onNewer) {
    listeners.add(onNewer);
  }

  /** The newest metadata seen so far. */
  public synchronized MetadataSnapshot current() {
    return current;
  }

  /**
   * Waits up to {@code timeoutMillis} until the metadata satisfies
   * {@code condition}; returns the metadata then, or the newest seen when the
   * time ran out (the caller checks the condition again).
   */
  public synchronized MetadataSnapshot await(Predicate<MetadataSnapshot> condition, long timeoutMillis)
      throws InterruptedException {
    final long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    while (!condition.test(current)) {
      final long leftMillis = (deadline - System.nanoTime()) / 1_000_000;
      if (leftMillis <= 0) {
        break;
      }
      wait(leftMillis);
    }
    return current;
  }
}
