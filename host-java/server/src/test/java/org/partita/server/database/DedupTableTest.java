package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.partita.client.ClientResponse;

final class DedupTableTest {
  private static final long SESSION_A = 0x8000_0000_0000_00A1L;
  private static final long SESSION_B = 0x8000_0000_0000_00B2L;
  private static final long MINUTE = 60_000_000L;

  private static ClientResponse answer() {
    return ClientResponse.success(List.of());
  }

  @Test
  void aRecordedCallIsFoundWithItsAnswerAndOthersAreNew() {
    final DedupTable table = new DedupTable(16, 10 * MINUTE);
    final ClientResponse first = answer();
    table.record(SESSION_A, 7, first, 1_000);
    assertEquals(DedupTable.Seen.RECORDED, table.seen(SESSION_A, 7));
    assertSame(first, table.outcome(SESSION_A, 7));
    assertEquals(DedupTable.Seen.NEW, table.seen(SESSION_A, 8));
    assertEquals(DedupTable.Seen.NEW, table.seen(SESSION_B, 7));
    assertNull(table.outcome(SESSION_B, 7));
  }

  @Test
  void theOldestRecordLeavesFirstAndItsSessionRefusesItThen() {
    final DedupTable table = new DedupTable(4, 10 * MINUTE);
    for (long s = 1; s <= 4; s++) {
      table.record(SESSION_A, s, answer(), s);
    }
    table.record(SESSION_B, 1, answer(), 5);
    assertEquals(4, table.size());
    assertEquals(DedupTable.Seen.FORGOTTEN, table.seen(SESSION_A, 1), "its record left: it may have run");
    assertEquals(DedupTable.Seen.RECORDED, table.seen(SESSION_A, 2));
    assertEquals(DedupTable.Seen.NEW, table.seen(SESSION_A, 5), "above what left: a new call");
    assertEquals(DedupTable.Seen.NEW, table.seen(SESSION_B, 2));
    table.record(SESSION_B, 2, answer(), 6);
    table.record(SESSION_B, 3, answer(), 7);
    assertEquals(DedupTable.Seen.FORGOTTEN, table.seen(SESSION_A, 3));
    assertEquals(DedupTable.Seen.FORGOTTEN, table.seen(SESSION_A, 2), "below the highest that left");
    assertEquals(DedupTable.Seen.RECORDED, table.seen(SESSION_A, 4));
    assertEquals(4, table.size());
  }

  @Test
  void aSilentSessionIsForgottenAfterTheExpiryOfTransactionTime() {
    final DedupTable table = new DedupTable(1, 10 * MINUTE);
    table.record(SESSION_A, 1, answer(), 0);
    table.record(SESSION_B, 1, answer(), MINUTE);
    assertEquals(DedupTable.Seen.FORGOTTEN, table.seen(SESSION_A, 1));
    table.record(SESSION_B, 2, answer(), 10 * MINUTE + 1);
    assertEquals(DedupTable.Seen.FORGOTTEN, table.seen(SESSION_A, 1), "9 minutes after its record left: kept");
    table.record(SESSION_B, 3, answer(), 16 * MINUTE);
    assertEquals(DedupTable.Seen.NEW, table.seen(SESSION_A, 1), "over 10 minutes since session A was touched");
    assertEquals(DedupTable.Seen.FORGOTTEN, table.seen(SESSION_B, 2));
  }

  @Test
  void manySessionsGrowTheSessionIndexWithoutLosingAny() {
    final DedupTable table = new DedupTable(100, 10 * MINUTE);
    for (long s = 1; s <= 1_000; s++) {
      table.record(0x8000_0000_0000_0000L | s, 1, answer(), s);
    }
    assertEquals(1_000, table.sessions());
    for (long s = 1; s <= 900; s++) {
      assertEquals(DedupTable.Seen.FORGOTTEN, table.seen(0x8000_0000_0000_0000L | s, 1));
    }
    for (long s = 901; s <= 1_000; s++) {
      assertEquals(DedupTable.Seen.RECORDED, table.seen(0x8000_0000_0000_0000L | s, 1));
    }
  }

  @Test
  void badBoundsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new DedupTable(0, MINUTE));
    assertThrows(IllegalArgumentException.class, () -> new DedupTable(4, 0));
  }

  /**
   * Seeded random records from a few sessions against a plain model (a
   * queue of the last records, the highest sequence that left per session):
   * the index's removals keep every record reachable, and two tables fed
   * the same records answer the same (what keeps copies equal).
   */
  @Test
  void randomRecordsMatchAModelAndTwoTablesStayEqual() {
    final Random random = new Random(12);
    final int capacity = 37;
    final DedupTable table = new DedupTable(capacity, 10 * MINUTE);
    final DedupTable twin = new DedupTable(capacity, 10 * MINUTE);
    final ArrayDeque<long[]> ring = new ArrayDeque<>();
    final Map<Long, Long> forgotten = new HashMap<>();
    final Map<Long, Long> nextSequence = new HashMap<>();
    final List<long[]> asked = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      final long session = 0x8000_0000_0000_0000L | (1 + random.nextInt(9));
      final long sequence = nextSequence.merge(session, 1L + random.nextInt(3), Long::sum);
      final ClientResponse outcome = answer();
      table.record(session, sequence, outcome, i);
      twin.record(session, sequence, outcome, i);
      ring.add(new long[] {session, sequence});
      if (ring.size() > capacity) {
        final long[] left = ring.poll();
        forgotten.merge(left[0], left[1], Math::max);
      }
      asked.add(new long[] {session, 1 + random.nextInt((int) sequence + 2)});
      if (i % 97 == 0) {
        for (long[] q : asked) {
          final boolean held = ring.stream().anyMatch(r -> r[0] == q[0] && r[1] == q[1]);
          final DedupTable.Seen expected = held ? DedupTable.Seen.RECORDED
              : q[1] <= forgotten.getOrDefault(q[0], 0L) ? DedupTable.Seen.FORGOTTEN : DedupTable.Seen.NEW;
          assertEquals(expected, table.seen(q[0], q[1]), "session " + q[0] + " sequence " + q[1] + " at " + i);
          assertEquals(expected, twin.seen(q[0], q[1]));
        }
        asked.clear();
      }
    }
    assertEquals(capacity, table.size());
  }
}
