package org.partita.bench.voter.driver;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/**
 * What the database says at one moment: the standings (procedure Results:
 * name and total votes per contestant, most votes first) and the number of
 * rows of {@code votes} (through @AdHoc). Immutable.
 *
 * @param votesByContestant total votes per contestant number, in the standings' order
 * @param names contestant names by number
 * @param voteRows {@code SELECT COUNT(*) FROM votes}
 */
record Standings(Map<Integer, Long> votesByContestant, Map<Integer, String> names, long voteRows) {
  static final String COUNT_VOTES = "SELECT COUNT(*) FROM votes";

  Standings {
    votesByContestant = Collections.unmodifiableMap(new LinkedHashMap<>(votesByContestant));
    names = Collections.unmodifiableMap(new LinkedHashMap<>(names));
  }

  /** Reads both; throws the client's exception when a call fails. */
  static Standings read(PartitaClient client) {
    final ResultTable results = client.call("Results").results().get(0);
    final Map<Integer, Long> votes = new LinkedHashMap<>();
    final Map<Integer, String> names = new LinkedHashMap<>();
    while (results.advanceRow()) {
      final int contestant = (int) results.getLong(1);
      names.put(contestant, results.getString(0));
      votes.put(contestant, results.getLong(2));
    }
    return new Standings(votes, names, client.call("@AdHoc", COUNT_VOTES).firstLong());
  }

  /** Votes of {@code contestant} (0 when it has none). */
  long votes(int contestant) {
    return votesByContestant.getOrDefault(contestant, 0L);
  }
}
