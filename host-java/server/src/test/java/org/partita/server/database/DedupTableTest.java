package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;

// A broken record index can fill up and probe for ever: each test fails after a bound instead of hanging.
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
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
    // 37 records in 128 index entries; 5 in 16 and 1 in 2, where probes collide and wrap around the index's end.
    for (int capacity : new int[] {37, 5, 1}) {
      randomRecordsMatchAModel(capacity);
    }
  }

  private void randomRecordsMatchAModel(int capacity) {
    final Random random = new Random(12);
    final DedupTable table = new DedupTable(capacity, 10 * MINUTE);
    final DedupTable twin = new DedupTable(capacity, 10 * MINUTE);
    final ArrayDeque<long[]> ring = new ArrayDeque<>();
    final Map<Long, Long> forgotten = new HashMap<>();
    final Map<Long, Long> nextSequence = new HashMap<>();
    final List<long[]> asked = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      final long session = 0x8000_0000_0000_0000L | (1 + random.nextInt(9));
      final long sequence = nextSequence.merge(session, 1L + random.nextInt(3), Long::sum);
      final ClientResponse outcome = answer(i);
      table.record(session, sequence, outcome, i);
      twin.record(session, sequence, outcome, i);
      ring.add(new long[] {session, sequence, i});
      if (ring.size() > capacity) {
        final long[] left = ring.poll();
        forgotten.merge(left[0], left[1], Math::max);
      }
      asked.add(new long[] {session, 1 + random.nextInt((int) sequence + 2)});
      if (i % 97 == 0) {
        for (long[] q : asked) {
          final long[] held = ring.stream().filter(r -> r[0] == q[0] && r[1] == q[1]).findFirst().orElse(null);
          final DedupTable.Seen expected = held != null ? DedupTable.Seen.RECORDED
              : q[1] <= forgotten.getOrDefault(q[0], 0L) ? DedupTable.Seen.FORGOTTEN : DedupTable.Seen.NEW;
          final String what = "capacity " + capacity + ", session " + q[0] + " sequence " + q[1] + " at " + i;
          assertEquals(expected, table.seen(q[0], q[1]), what);
          assertEquals(expected, twin.seen(q[0], q[1]), what);
          if (held != null) {
            assertEquals(held[2], valueOf(table.outcome(q[0], q[1])), "the answer recorded for " + what);
          }
        }
        asked.clear();
      }
    }
    assertEquals(capacity, table.size());
  }

  /** A success answer with one BIGINT table holding {@code value}, and an application status. */
  private static ClientResponse answer(long value) {
    final ResultTable table = new ResultTableBuilder().column("RESULT", ValueType.BIGINT).row(value).build();
    return ClientResponse.success(List.of(table)).withAppStatus((int) value, "status " + value);
  }

  private static long valueOf(ClientResponse answer) {
    final ResultTable table = answer.results().get(0).view();
    assertTrue(table.advanceRow());
    return table.getLong(0);
  }

  /**
   * A rejoining copy loads the leader's table at the cut: from then on the
   * two, fed the same writes, answer every question the same, evict the same
   * records and sweep the same sessions; the loaded answers are the
   * recorded ones (their tables and application status).
   */
  @Test
  void aLoadedTableGoesOnExactlyAsTheOneItWasTakenFrom() {
    final Random random = new Random(31);
    final int capacity = 23;
    final DedupTable leader = new DedupTable(capacity, 10 * MINUTE);
    final Map<Long, Long> nextSequence = new HashMap<>();
    long time = 0;
    for (int i = 0; i < 50; i++) { // wraps the ring twice before the cut
      final long session = 0x8000_0000_0000_0000L | (1 + random.nextInt(5));
      final long sequence = nextSequence.merge(session, 1L + random.nextInt(2), Long::sum);
      leader.record(session, sequence, answer(sequence * 1000 + session % 100), time += MINUTE / 10);
    }
    final DedupTable joiner = new DedupTable(capacity, 10 * MINUTE);
    joiner.load(leader.encode());
    assertEquals(leader.size(), joiner.size());
    assertEquals(leader.sessions(), joiner.sessions());
    for (int i = 0; i < 400; i++) {
      for (long s = 1; s <= 6; s++) {
        final long session = 0x8000_0000_0000_0000L | s;
        for (long q = 1; q <= nextSequence.getOrDefault(session, 0L) + 1; q++) {
          assertEquals(leader.seen(session, q), joiner.seen(session, q), "session " + s + " call " + q + " at " + i);
          final ClientResponse ours = leader.outcome(session, q);
          if (ours != null) {
            final ClientResponse loaded = joiner.outcome(session, q);
            assertEquals(valueOf(ours), valueOf(loaded));
            assertEquals(ours.appStatus(), loaded.appStatus());
            assertEquals(ours.appStatusMessage(), loaded.appStatusMessage());
          }
        }
      }
      // Writes after the cut, now and then after a long silence (sessions expire on both alike).
      final long session = 0x8000_0000_0000_0000L | (1 + random.nextInt(6));
      final long sequence = nextSequence.merge(session, 1L + random.nextInt(2), Long::sum);
      time += i % 50 == 49 ? 7 * MINUTE : MINUTE / 10;
      final ClientResponse outcome = answer(sequence);
      leader.record(session, sequence, outcome, time);
      joiner.record(session, sequence, outcome, time);
      assertEquals(leader.sessions(), joiner.sessions(), "sessions after write " + i);
    }
  }

  /** One answer travels alone in a multi-partition call's decision item, for partition 0's copies to record. */
  @Test
  void oneAnswerEncodedAloneDecodesAsItWas() {
    final ClientResponse decoded = DedupTable.decodeAnswer(DedupTable.encodeAnswer(answer(7)));
    assertEquals(7, valueOf(decoded));
    assertEquals(7, decoded.appStatus());
    assertEquals("status 7", decoded.appStatusMessage());
    assertEquals(null, DedupTable.decodeAnswer(DedupTable.encodeAnswer(null)));
    final byte[] longer = java.util.Arrays.copyOf(DedupTable.encodeAnswer(answer(7)), 200);
    assertThrows(IllegalArgumentException.class, () -> DedupTable.decodeAnswer(longer));
  }

  @Test
  void anEmptyTableLoadsAsEmpty() {
    final DedupTable joiner = new DedupTable(8, 10 * MINUTE);
    joiner.load(new DedupTable(8, 10 * MINUTE).encode());
    assertEquals(0, joiner.size());
    assertEquals(DedupTable.Seen.NEW, joiner.seen(SESSION_A, 1));
  }

  /** Answers above the form's bound are left out: the records stay, without their answers (refused as unknown). */
  @Test
  void recordsWhoseAnswersDoNotFitAreCarriedWithoutThem() {
    final DedupTable leader = new DedupTable(4, 10 * MINUTE);
    final ResultTableBuilder big = new ResultTableBuilder().column("V", ValueType.VARBINARY);
    big.row((Object) new byte[DedupTable.MAX_ENCODED_ANSWER_BYTES / 2]);
    final ClientResponse large = ClientResponse.success(List.of(big.build()));
    for (long s = 1; s <= 3; s++) {
      leader.record(SESSION_A, s, large, s);
    }
    final DedupTable joiner = new DedupTable(4, 10 * MINUTE);
    final byte[] form = leader.encode();
    assertTrue(form.length < 1024, "answers left out: " + form.length + " bytes");
    joiner.load(form);
    assertEquals(DedupTable.Seen.RECORDED, joiner.seen(SESSION_A, 2));
    assertNull(joiner.outcome(SESSION_A, 2), "held without its answer");
  }

  @Test
  void aMalformedOrForeignFormIsRefusedNamingWhatIsWrong() {
    final DedupTable leader = new DedupTable(8, 10 * MINUTE);
    leader.record(SESSION_A, 1, answer(5), 1);
    leader.record(SESSION_B, 1, answer(6), 2);
    final byte[] form = leader.encode();
    final IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
        () -> new DedupTable(16, 10 * MINUTE).load(form));
    assertTrue(other.getMessage().contains("capacity 8"), other.getMessage());
    final IllegalArgumentException cut = assertThrows(IllegalArgumentException.class,
        () -> new DedupTable(8, 10 * MINUTE).load(java.util.Arrays.copyOf(form, form.length - 5)));
    assertTrue(cut.getMessage().contains("truncated"), cut.getMessage());
    final IllegalArgumentException longer = assertThrows(IllegalArgumentException.class,
        () -> new DedupTable(8, 10 * MINUTE).load(java.util.Arrays.copyOf(form, form.length + 1)));
    assertTrue(longer.getMessage().contains("after its last session"), longer.getMessage());
    final byte[] format = form.clone();
    format[3] = 9;
    assertThrows(IllegalArgumentException.class, () -> new DedupTable(8, 10 * MINUTE).load(format));
    final DedupTable used = new DedupTable(8, 10 * MINUTE);
    used.record(SESSION_A, 9, answer(1), 1);
    assertThrows(IllegalStateException.class, () -> used.load(form));
  }
}
