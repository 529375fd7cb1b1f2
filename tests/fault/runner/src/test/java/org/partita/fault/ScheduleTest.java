package org.partita.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleTest {
  @Test
  void shouldBeTheSameForTheSameSeed() {
    assertEquals(Schedule.plan(7, List.of("kill", "pause"), 60), Schedule.plan(7, List.of("kill", "pause"), 60));
    assertNotEquals(Schedule.plan(7, List.of("kill", "pause"), 60), Schedule.plan(8, List.of("kill", "pause"), 60));
  }

  @Test
  void shouldAlternateQuietSpellsAndFaultsEndingQuiet() {
    final Schedule s = Schedule.plan(3, List.of("kill", "pause", "power-loss"), 60);
    assertFalse(s.faults().isEmpty());
    long end = 0;
    for (Schedule.Fault f : s.faults()) {
      assertTrue(f.quietMillis() >= Schedule.QUIET_MIN_MILLIS, f.toString());
      assertTrue(f.holdMillis() >= (f.nemesis().equals("pause") ? Schedule.PAUSE_MIN_MILLIS
          : Schedule.FAULT_MIN_MILLIS), f.toString());
      end += f.quietMillis() + f.holdMillis();
    }
    assertTrue(end <= 60_000 - Schedule.TAIL_MILLIS);
  }

  @Test
  void shouldHoldPausesPastTheCallTimeout() {
    for (Schedule.Fault f : Schedule.plan(11, List.of("pause"), 120).faults()) {
      assertTrue(f.holdMillis() > Worker.CALL_TIMEOUT.toMillis(), f.toString());
    }
  }

  @Test
  void shouldPlanNothingWithoutNemeses() {
    assertTrue(Schedule.plan(1, List.of(), 60).faults().isEmpty());
  }

  @Test
  void shouldPlayAtMostTheKillLimitAndOtherwiseTheSameDraws() {
    for (long seed = 1; seed <= 20; seed++) {
      final Schedule limited = Schedule.plan(seed, List.of("kill", "partition"), 120, 1);
      assertTrue(limited.faults().stream().filter(f -> f.nemesis().equals("kill")).count() <= 1, limited.toString());
      final Schedule unlimited = Schedule.plan(seed, List.of("kill", "partition"), 120);
      assertEquals(unlimited.faults().get(0), limited.faults().get(0));
    }
    final Schedule killsOnly = Schedule.plan(5, List.of("kill"), 120, 1);
    assertEquals(1, killsOnly.faults().size(), killsOnly.toString());
    assertTrue(Schedule.plan(5, List.of("kill"), 120).faults().size() > 1);
  }
}
