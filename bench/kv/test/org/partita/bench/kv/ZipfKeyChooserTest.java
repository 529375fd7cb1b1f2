package org.partita.bench.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ZipfKeyChooserTest {
  private static final int SAMPLES = 400_000;

  private static int[] histogram(KeyChooser chooser, int count) {
    final int[] hits = new int[count];
    final SplittableRandom random = new SplittableRandom(3);
    for (int i = 0; i < SAMPLES; i++) {
      hits[chooser.next(random)]++;
    }
    return hits;
  }

  @Test
  void shouldChooseTheFirstKeysAsOftenAsTheZipfLawSays() {
    final ZipfKeyChooser zipf = new ZipfKeyChooser(1000, 0.99);
    final int[] hits = histogram(zipf, 1000);
    for (int key : new int[] {0, 1, 9, 99}) {
      final double expected = zipf.probability(key) * SAMPLES;
      assertEquals(expected, hits[key], expected * 0.1 + 30, "key " + key);
    }
  }

  @Test
  void shouldBeFarMoreSkewedThanUniform() {
    final int[] hits = histogram(new ZipfKeyChooser(100_000, ZipfKeyChooser.DEFAULT_EXPONENT), 100_000);
    long top100 = 0;
    for (int key = 0; key < 100; key++) {
      top100 += hits[key];
    }
    // Zipf 0.99 over 100,000 keys: the hottest 0.1% of keys take ~40% of the choices.
    assertTrue(top100 > SAMPLES * 0.3 && top100 < SAMPLES * 0.5, "top 100 keys: " + top100);
    assertTrue(hits[0] > hits[1] && hits[1] > hits[10], "decreasing with rank");
  }

  @Test
  void shouldStayWithinTheKeySpace() {
    final int[] hits = histogram(new ZipfKeyChooser(7, 0.99), 7);
    for (int key = 0; key < 7; key++) {
      assertTrue(hits[key] > 0, "key " + key + " never chosen");
    }
    assertEquals(SAMPLES, java.util.Arrays.stream(hits).sum());
  }

  @Test
  void shouldAlwaysChooseTheOnlyKey() {
    final int[] hits = histogram(new ZipfKeyChooser(1, 0.99), 1);
    assertEquals(SAMPLES, hits[0]);
  }

  @Test
  void shouldHandleAnExponentOfExactlyOne() {
    final ZipfKeyChooser zipf = new ZipfKeyChooser(50, 1.0);
    final int[] hits = histogram(zipf, 50);
    assertEquals(zipf.probability(0) * SAMPLES, hits[0], zipf.probability(0) * SAMPLES * 0.05);
  }

  @Test
  void shouldRejectANonPositiveExponent() {
    assertThrows(IllegalArgumentException.class, () -> new ZipfKeyChooser(10, 0));
  }

  @Test
  void shouldChooseUniformKeysEvenly() {
    final int[] hits = histogram(KeyChooser.of(KvSettings.KeyDistribution.UNIFORM, 10), 10);
    for (int h : hits) {
      assertEquals(SAMPLES / 10.0, h, SAMPLES / 10.0 * 0.05);
    }
  }
}
