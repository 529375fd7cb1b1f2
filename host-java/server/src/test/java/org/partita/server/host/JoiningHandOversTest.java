package org.partita.server.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The hand-overs of a joining host's copies. The cycle a fault run found
 * (tests/fault/RESULTS.md): the old epoch of partition 0 ends only once the
 * joining copy of partition 1 entered its new epoch, which the map follower
 * does after it handled partition 0. Waiting for partition 0's hand-over on
 * the follower's thread, as before, held both for the 30 s bound.
 */
@Timeout(60)
class JoiningHandOversTest {
  private final JoiningHandOvers handOvers = new JoiningHandOvers();

  @Test
  void shouldLetTheFollowerStartTheNextPartitionsHandOverWhileOneWaitsForIt() throws Exception {
    final CountDownLatch partitionOneEntered = new CountDownLatch(1);
    final CompletableFuture<Boolean> partitionZero = new CompletableFuture<>();
    // The follower's thread: partition 0's map change, then partition 1's.
    handOvers.start(0, () -> {
      try {
        partitionZero.complete(partitionOneEntered.await(30, TimeUnit.SECONDS));
      } catch (InterruptedException e) {
        partitionZero.complete(false);
      }
    });
    handOvers.start(1, partitionOneEntered::countDown);
    assertTrue(partitionZero.get(30, TimeUnit.SECONDS), "partition 0's old epoch ended once partition 1 entered its new"
        + " one, not by the bound");
  }

  @Test
  void shouldMakeALaterChangeOfAPartitionWaitForItsHandOver() throws Exception {
    final List<String> order = new CopyOnWriteArrayList<>();
    final CountDownLatch letGo = new CountDownLatch(1);
    handOvers.start(0, () -> {
      try {
        letGo.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      order.add("handed over");
    });
    final CompletableFuture<Void> laterChange = CompletableFuture.runAsync(() -> {
      handOvers.await(0);
      order.add("later change");
    });
    handOvers.await(1); // no hand-over of partition 1: returns at once
    letGo.countDown();
    laterChange.get(30, TimeUnit.SECONDS);
    assertEquals(List.of("handed over", "later change"), order);
  }
}
