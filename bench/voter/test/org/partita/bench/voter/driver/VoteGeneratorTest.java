package org.partita.bench.voter.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.partita.bench.voter.AreaCodes;

class VoteGeneratorTest {
  private static final int DRAWS = 300_000;

  private static long[] counts(VoteGenerator g, int contestants) {
    final long[] counts = new long[contestants + 2];
    for (int i = 0; i < DRAWS; i++) {
      g.next();
      counts[g.contestant()]++;
    }
    return counts;
  }

  @Test
  void shouldSendOneCallInAHundredToAContestantThatDoesNotExist() {
    final long[] counts = counts(new VoteGenerator(6, new SplittableRandom(1)), 6);
    assertEquals(0.01, counts[7] / (double) DRAWS, 0.001);
    assertEquals(0, counts[0]);
  }

  @Test
  void shouldFavourTheFirstContestantsByWeightOneOverK() {
    final VoteGenerator g = new VoteGenerator(6, new SplittableRandom(2));
    final long[] counts = counts(g, 6);
    final long valid = DRAWS - counts[7];
    assertEquals(0.408, g.weight(1), 0.001);
    assertEquals(0.068, g.weight(6), 0.001);
    for (int k = 1; k <= 6; k++) {
      assertEquals(g.weight(k), counts[k] / (double) valid, 0.02, "contestant " + k);
    }
    assertTrue(counts[1] > 4 * counts[6], "contestant 1 much more popular than 6");
    for (int k = 1; k < 6; k++) {
      assertTrue(counts[k] > counts[k + 1], "contestant " + k + " ahead of " + (k + 1));
    }
  }

  @Test
  void shouldGiveAreaCodesDifferentFavouritesInProportionToTheWeights() {
    final VoteGenerator g = new VoteGenerator(6, new SplittableRandom(3));
    final long[] favoured = new long[7];
    for (int i = 0; i < AreaCodes.CODES.length; i++) {
      favoured[g.favourite(i)]++;
    }
    for (int k = 1; k <= 6; k++) {
      assertEquals(g.weight(k), favoured[k] / (double) AreaCodes.CODES.length, 0.02, "contestant " + k);
    }
  }

  @Test
  void shouldDrawPhoneNumbersFromKnownAreaCodesWithSevenRandomDigits() {
    final Set<Integer> codes = new HashSet<>();
    for (int code : AreaCodes.CODES) {
      codes.add(code);
    }
    final VoteGenerator g = new VoteGenerator(6, new SplittableRandom(4));
    final Set<Long> phones = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      g.next();
      assertTrue(codes.contains((int) (g.phone() / 10_000_000L)), "area code of " + g.phone());
      phones.add(g.phone());
    }
    assertTrue(phones.size() > 9_990, "nearly every phone new: " + phones.size());
  }

  @Test
  void shouldVoteOnlyForTheOneContestantOrTheInvalidNumberWhenThereIsOne() {
    final long[] counts = counts(new VoteGenerator(1, new SplittableRandom(5)), 1);
    assertEquals(DRAWS, counts[1] + counts[2]);
    assertEquals(0.01, counts[2] / (double) DRAWS, 0.001);
  }

  @Test
  void shouldRejectNoContestants() {
    assertThrows(IllegalArgumentException.class, () -> new VoteGenerator(0, new SplittableRandom()));
  }
}
