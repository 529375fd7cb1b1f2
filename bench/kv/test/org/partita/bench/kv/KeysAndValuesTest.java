package org.partita.bench.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KeysAndValuesTest {
  @Test
  void shouldPadKeysWithZerosToTheKeySize() {
    final KeySpace keys = new KeySpace(1000, 10);
    assertEquals("k000000000", keys.key(0));
    assertEquals("k000000123", keys.key(123));
    assertEquals(32, new KeySpace(100_000, 32).key(99_999).length());
  }

  @Test
  void shouldRejectAKeySizeTooSmallForTheKeyCount() {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new KeySpace(100_000, 5));
    assertTrue(e.getMessage().contains("--key-size must be between 6"), e.getMessage());
  }

  @Test
  void shouldRejectAKeySizeWiderThanTheColumn() {
    assertThrows(IllegalArgumentException.class, () -> new KeySpace(10, 33));
  }

  @Test
  void shouldEmbedTheSequenceNumberInEveryValue() {
    final ValueFactory values = new ValueFactory(1024, 5);
    final byte[] v = values.value(123_456_789L);
    assertEquals(1024, v.length);
    assertEquals(123_456_789L, ValueFactory.sequenceOf(v));
    assertTrue(values.isValueOf(v, 123_456_789L));
    assertFalse(values.isValueOf(values.value(123_456_790L), 123_456_789L));
  }

  @Test
  void shouldMakeValuesThatDifferBeyondTheirSequenceNumber() {
    final ValueFactory values = new ValueFactory(64, 5);
    final byte[] a = values.value(1);
    final byte[] b = values.value(2);
    assertNotEquals(java.util.Arrays.toString(java.util.Arrays.copyOfRange(a, 8, 64)),
        java.util.Arrays.toString(java.util.Arrays.copyOfRange(b, 8, 64)));
  }

  @Test
  void shouldRejectValuesTooSmallForTheSequenceNumberOrTooLarge() {
    assertThrows(IllegalArgumentException.class, () -> new ValueFactory(7, 1));
    assertThrows(IllegalArgumentException.class, () -> new ValueFactory((1 << 20) + 1, 1));
  }

  @Test
  void shouldNotReadASequenceNumberFromAShortValue() {
    assertEquals(-1, ValueFactory.sequenceOf(new byte[3]));
    assertEquals(-1, ValueFactory.sequenceOf(null));
  }
}
