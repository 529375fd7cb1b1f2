package org.partita.server.planner;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class DeterminismTest {
  @Test
  void shouldFlagLimitWithoutOrderBy() {
    assertNotNull(Determinism.problem("SELECT a FROM t LIMIT 1"));
    assertNotNull(Determinism.problem("SELECT a FROM t LIMIT 1 OFFSET 2"));
  }

  @Test
  void shouldAcceptOrderedOrUnlimitedQueriesAndWrites() {
    assertNull(Determinism.problem("SELECT a FROM t ORDER BY a LIMIT 1"));
    assertNull(Determinism.problem("SELECT a FROM t"));
    assertNull(Determinism.problem("UPDATE t SET a = 1"));
  }
}
