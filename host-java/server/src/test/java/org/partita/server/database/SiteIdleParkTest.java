package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * How long an idle site sleeps when no producer wakes it: idle hosts cost
 * next to nothing (a parked site used to wake every 10 ms whatever
 * happened), yet statistics and snapshot chunks still leave on time.
 */
class SiteIdleParkTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  @Test
  void shouldSleepUpToItsMissedWakeUpBoundWhenNothingIsDue() {
    assertEquals(250 * MS, Site.idleParkNanos(false, -1));
  }

  @Test
  void shouldWakeWhenItsStatisticsAreDue() {
    assertEquals(30 * MS, Site.idleParkNanos(false, 30 * MS));
    assertEquals(1, Site.idleParkNanos(false, 1));
    assertEquals(250 * MS, Site.idleParkNanos(false, 1_000 * MS), "never past the missed wake-up bound");
  }

  @Test
  void shouldLookAtTheSnapshotSinkEveryTenMillisecondsWhileStreaming() {
    assertEquals(10 * MS, Site.idleParkNanos(true, -1));
    assertEquals(10 * MS, Site.idleParkNanos(true, 30 * MS));
    assertEquals(3 * MS, Site.idleParkNanos(true, 3 * MS));
  }
}
