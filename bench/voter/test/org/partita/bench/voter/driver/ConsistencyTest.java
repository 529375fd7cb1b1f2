package org.partita.bench.voter.driver;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.partita.bench.voter.Vote;

class ConsistencyTest {
  private static final Map<Integer, String> NAMES = Map.of(1, "Ann", 2, "Bob");

  /** Before: Ann 10, Bob 5, 15 rows. */
  private static final Standings BEFORE = new Standings(Map.of(1, 10L, 2, 5L), NAMES, 15);

  private static Outcomes outcomes(int ann, int bob) {
    final Outcomes o = new Outcomes(2);
    for (int i = 0; i < ann; i++) {
      o.recordAnswer(1, Vote.ACCEPTED);
    }
    for (int i = 0; i < bob; i++) {
      o.recordAnswer(2, Vote.ACCEPTED);
    }
    o.recordAnswer(3, Vote.INVALID_CONTESTANT);
    o.recordAnswer(1, Vote.OVER_VOTE_LIMIT);
    return o;
  }

  @Test
  void shouldAgreeWhenTheDatabaseGainedExactlyTheAcceptedVotesOfBothPhases() {
    final Standings after = new Standings(Map.of(1, 13L, 2, 9L), NAMES, 22);
    assertTrue(Consistency.check(BEFORE, after, outcomes(1, 3), outcomes(2, 1)).consistent());
  }

  @Test
  void shouldDisagreeWhenAContestantsVotesDiffer() {
    final Standings after = new Standings(Map.of(1, 14L, 2, 8L), NAMES, 22);
    final Consistency c = Consistency.check(BEFORE, after, outcomes(1, 3), outcomes(2, 1));
    assertFalse(c.consistent());
    assertTrue(c.lines().stream().anyMatch(l -> l.startsWith("contestant 1") && l.contains("differs")), c::toString);
  }

  @Test
  void shouldDisagreeWhenTheRowCountDiffers() {
    final Standings after = new Standings(Map.of(1, 13L, 2, 9L), NAMES, 23);
    final Consistency c = Consistency.check(BEFORE, after, outcomes(1, 3), outcomes(2, 1));
    assertFalse(c.consistent());
    assertTrue(c.lines().stream().anyMatch(l -> l.startsWith("all") && l.contains("differs")), c::toString);
  }

  @Test
  void shouldDisagreeWhenTheDatabaseHoldsVotesForAContestantTheDriverNeverSawAccepted() {
    final Standings after = new Standings(Map.of(1, 13L, 2, 9L, 3, 1L), Map.of(1, "Ann", 2, "Bob", 3, "Cy"), 23);
    assertFalse(Consistency.check(BEFORE, after, outcomes(1, 3), outcomes(2, 1)).consistent());
  }
}
