package org.partita.bench.voter.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The consistency check: the votes the driver saw accepted (warm-up and
 * measured period) must be exactly what the database gained meanwhile —
 * per contestant in the standings (a view), and in total as rows of
 * {@code votes}. Comparing changes rather than totals lets the check run
 * against a server that already held votes, as long as no other client
 * votes at the same time. Immutable.
 *
 * @param consistent whether every figure agrees
 * @param lines one line per compared figure: driver, database, and a mark when they differ
 */
record Consistency(boolean consistent, List<String> lines) {
  Consistency {
    lines = List.copyOf(lines);
  }

  static Consistency check(Standings before, Standings after, Outcomes... phases) {
    final TreeSet<Integer> contestants = new TreeSet<>(after.votesByContestant().keySet());
    for (int c = 1; c <= phases[0].maxContestant(); c++) {
      contestants.add(c);
    }
    boolean ok = true;
    final List<String> lines = new ArrayList<>();
    long total = 0;
    for (int c : contestants) {
      long counted = 0;
      for (Outcomes phase : phases) {
        counted += phase.accepted(c);
      }
      total += counted;
      final long gained = after.votes(c) - before.votes(c);
      if (counted == 0 && gained == 0 && c == phases[0].maxContestant()) {
        continue;                                  // the invalid number, as expected
      }
      ok &= counted == gained;
      lines.add(line("contestant " + c, counted, gained));
    }
    final long rowsGained = after.voteRows() - before.voteRows();
    ok &= total == rowsGained;
    lines.add(line("all (COUNT(*) FROM votes)", total, rowsGained));
    return new Consistency(ok, lines);
  }

  private static String line(String what, long counted, long gained) {
    return String.format("%-26s driver %,12d  database %,12d%s", what, counted, gained,
        counted == gained ? "" : "  <-- differs");
  }
}
