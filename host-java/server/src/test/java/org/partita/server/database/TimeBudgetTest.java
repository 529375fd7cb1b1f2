package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TimeBudgetTest {
  @Test
  void shouldRestartAReusableBudgetForEachTransaction() {
    final TimeBudget budget = TimeBudget.reusable();
    assertSame(budget, budget.restart(60_000));
    assertEquals(60_000, budget.limitMillis());
    final int left = budget.nextBatchMillis();
    assertTrue(left > 0 && left <= 60_000, "left " + left);
    budget.restart(0);
    assertEquals(0, budget.limitMillis());
    assertEquals(0, budget.nextBatchMillis());
  }

  @Test
  void shouldRefuseToRestartAnImmutableBudget() {
    assertThrows(IllegalStateException.class, () -> TimeBudget.NONE.restart(10));
    assertThrows(IllegalStateException.class, () -> TimeBudget.startingNow(10).restart(10));
  }
}
