package org.partita.fault;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class AvailabilityTest {
  private static History.Completion op(long invoked, long completed, Outcome outcome) {
    return new History.Completion("write", invoked, completed, outcome);
  }

  private final Availability availability = new Availability(List.of(op(0, 10, Outcome.OK),
      op(20, 30, Outcome.FAIL), op(40, 90, Outcome.INFO), op(95, 120, Outcome.OK), op(125, 130, Outcome.OK)),
      List.of(new History.FaultWindow("kill", "hosts 127.0.0.1:1", 15, 100)), 0, 200);

  @Test
  void shouldSplitSuccessRatesByFaultWindows() {
    assertArrayEquals(new double[] {1.0 / 3, 3}, availability.successRate(true));
    assertArrayEquals(new double[] {1.0, 2}, availability.successRate(false));
  }

  @Test
  void shouldMeasureTheFirstSuccessAfterAFaultAndItsHealing() {
    assertEquals(105, availability.firstSuccessAfter(15));
    assertEquals(30, availability.firstSuccessAfter(100));
    assertEquals(-1, availability.firstSuccessAfter(126));
  }

  @Test
  void shouldFindTheLongestGapIncludingTheEnd() {
    assertArrayEquals(new long[] {10, 110}, availability.longestGap());
  }
}
