package org.partita.examples.voter;

import java.util.List;

/**
 * The standings as the Results procedure answers them, most votes first. Immutable.
 *
 * @param contestants one entry per contestant with at least one vote
 */
public record Standings(List<Contestant> contestants) {
  /** One contestant's line. */
  public record Contestant(int number, String name, long votes) {}

  public Standings {
    contestants = List.copyOf(contestants);
  }

  /** Votes of contestant {@code number} (0 when absent). */
  public long votes(int number) {
    return contestants.stream().filter(c -> c.number() == number).mapToLong(Contestant::votes).sum();
  }

  public long total() {
    return contestants.stream().mapToLong(Contestant::votes).sum();
  }
}
