package org.partita.bench.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class WriteLogTest {
  private final WriteLog log = new WriteLog(4);

  private long[] sortedCandidates(int key) {
    final long[] c = log.candidates(key);
    Arrays.sort(c);
    return c;
  }

  @Test
  void shouldExpectTheLastOfPutsIssuedOneAfterAnother() {
    log.acknowledged(1, 10, 100, 200);
    log.acknowledged(1, 11, 300, 400);
    log.acknowledged(1, 12, 500, 600);
    assertArrayEquals(new long[] {12}, log.candidates(1));
  }

  @Test
  void shouldAcceptEitherOfTwoOverlappingPuts() {
    log.acknowledged(2, 20, 100, 400); // sent before 21 was answered, answered after 21 was sent
    log.acknowledged(2, 21, 200, 300);
    assertArrayEquals(new long[] {20, 21}, sortedCandidates(2));
  }

  @Test
  void shouldDropOverlappingPutsOnceALaterPutIsSentAfterThem() {
    log.acknowledged(2, 20, 100, 400);
    log.acknowledged(2, 21, 200, 300);
    log.acknowledged(2, 22, 500, 600);
    assertArrayEquals(new long[] {22}, log.candidates(2));
  }

  @Test
  void shouldKeepAnEarlierPutAnsweredAfterALaterOneWasSent() {
    log.acknowledged(3, 30, 100, 250);
    log.acknowledged(3, 31, 200, 260); // sent at 200, while 30 was still unanswered
    assertArrayEquals(new long[] {30, 31}, sortedCandidates(3));
  }

  @Test
  void shouldMakeAKeyUnverifiableWhenAPutOutcomeIsUnknown() {
    log.acknowledged(0, 1, 100, 200);
    log.outcomeUnknown(0);
    log.acknowledged(0, 2, 300, 400);
    assertTrue(log.isUncertain(0));
    assertNull(log.candidates(0));
  }

  @Test
  void shouldHaveNoCandidateForAKeyNeverWritten() {
    assertNull(log.candidates(3));
    assertEquals(Long.MIN_VALUE, log.lastAcknowledgedNanos(3));
  }

  @Test
  void shouldRememberTheLastAnswerTime() {
    log.acknowledged(1, 10, 100, 700);
    log.acknowledged(1, 11, 200, 500);
    assertEquals(700, log.lastAcknowledgedNanos(1));
  }
}
