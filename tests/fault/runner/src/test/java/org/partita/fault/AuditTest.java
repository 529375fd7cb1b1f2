package org.partita.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AuditTest {
  private static Operation write(long id, boolean conditional) {
    return new Operation("write", "1", Long.toString(id), "P", new Object[0], r -> "x", id, conditional);
  }

  @Test
  void shouldCountOnlyWritesThatTookEffect() {
    assertTrue(write(1, false).tookEffect("1"));
    assertTrue(write(1, true).tookEffect("true"));
    assertFalse(write(1, true).tookEffect("false"));
    assertFalse(Operation.read("read", "1", "P", new Object[0], r -> "x").tookEffect("7"));
  }

  @Test
  void shouldFindAnAcknowledgedWriteMissingAndAFailedWritePresent() throws Exception {
    final Worker worker = new Worker(0, 1, new SetWorkload(false, false), null, List.of(), 1, 0);
    worker.acknowledgedWrites().addAll(List.of(write(1, false), write(2, false), write(3, false)));
    worker.failedWrites().add(write(4, false));
    final Audit audit = Audit.of(List.of(worker), Set.of(1L, 3L, 4L));
    assertEquals(3, audit.acknowledged());
    assertEquals(Set.of(2L), audit.lost());
    assertEquals(Set.of(4L), audit.failedPresent());
    assertFalse(audit.passed());
    assertTrue(Audit.of(List.of(worker), Set.of(1L, 2L, 3L)).lost().isEmpty());
  }
}
