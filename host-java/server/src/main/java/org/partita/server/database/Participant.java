package org.partita.server.database;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;
import org.partita.server.engine.PartitionEngine;

/**
 * A site held by a multi-partition transaction: while the transaction lasts,
 * the site's thread runs only the work the coordinator sends it.
 */
final class Participant {
  private static final Runnable RELEASE = () -> { };

  private final Site site;
  private final BlockingQueue<Runnable> work = new LinkedBlockingQueue<>();

  private Participant(Site site) {
    this.site = site;
  }

  /** Queues the hold on the site; it takes effect when the site reaches it. */
  static Participant hold(Site site) {
    final Participant p = new Participant(site);
    site.submit(p::serve);
    return p;
  }

  private void serve() {
    for (Runnable r = take(); r != RELEASE; r = take()) {
      r.run();
    }
  }

  private Runnable take() {
    try {
      return work.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return RELEASE;
    }
  }

  /** Runs {@code step} on the site's thread with its engine. */
  <T> CompletableFuture<T> call(Function<PartitionEngine, T> step) {
    final CompletableFuture<T> result = new CompletableFuture<>();
    work.add(() -> {
      try {
        result.complete(step.apply(site.engine()));
      } catch (Throwable t) {
        result.completeExceptionally(t);
      }
    });
    return result;
  }

  Site site() {
    return site;
  }

  /** Ends the hold: the site goes back to its queue. */
  void release() {
    work.add(RELEASE);
  }
}
