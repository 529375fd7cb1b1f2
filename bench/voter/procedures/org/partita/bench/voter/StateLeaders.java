package org.partita.bench.voter;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.procedure.SqlStmt;

/**
 * The leading contestant of every state, computed from the votes per
 * contestant and state. The leader of a state is the contestant with the
 * most votes there; a tie goes to the lower contestant number. Used by
 * {@link GetStateHeatmap} and {@link ContestantWinningStates}; not a
 * procedure. Stateless; each call builds new objects.
 */
final class StateLeaders {
  /**
   * Votes per state and contestant, summed over partitions; within a state
   * the leader comes first (most votes, then lowest number).
   */
  static final String VOTES_BY_STATE_SQL =
      "SELECT state, contestant_number, SUM(num_votes) AS votes"
          + " FROM v_votes_by_contestant_number_state"
          + " GROUP BY state, contestant_number"
          + " ORDER BY state ASC, votes DESC, contestant_number ASC";

  private StateLeaders() {}

  /** A fresh statement for {@link #VOTES_BY_STATE_SQL} (procedures declare their own SqlStmt fields). */
  static SqlStmt statement() {
    return new SqlStmt(VOTES_BY_STATE_SQL);
  }

  /**
   * The leader of each state, in state order.
   *
   * REQUIRES: {@code votesByState} is the result of {@link #VOTES_BY_STATE_SQL}, rows not yet read.
   */
  static List<Leader> leaders(ResultTable votesByState) {
    final List<Leader> leaders = new ArrayList<>();
    String state = null;
    int contestant = 0;
    long contestantVotes = 0;
    long stateVotes = 0;
    while (votesByState.advanceRow()) {
      final String rowState = votesByState.getString(0);
      if (!rowState.equals(state)) {
        if (state != null) {
          leaders.add(new Leader(state, contestant, contestantVotes, stateVotes));
        }
        state = rowState;
        contestant = (int) votesByState.getLong(1);
        contestantVotes = votesByState.getLong(2);
        stateVotes = 0;
      }
      stateVotes += votesByState.getLong(2);
    }
    if (state != null) {
      leaders.add(new Leader(state, contestant, contestantVotes, stateVotes));
    }
    return leaders;
  }

  /** The states {@code contestant} leads, most votes for it first (then by state), at most {@code max}. */
  static List<Leader> wonBy(List<Leader> leaders, int contestant, int max) {
    final List<Leader> won = new ArrayList<>();
    for (Leader leader : leaders) {
      if (leader.contestant() == contestant) {
        won.add(leader);
      }
    }
    Collections.sort(won, (a, b) -> a.contestantVotes() != b.contestantVotes()
        ? Long.compare(b.contestantVotes(), a.contestantVotes()) : a.state().compareTo(b.state()));
    return won.subList(0, Math.min(max, won.size()));
  }

  /** A table of {@code leaders}: STATE, CONTESTANT_NUMBER, CONTESTANT_VOTES, STATE_VOTES. */
  static ResultTable table(List<Leader> leaders) {
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("STATE", ValueType.VARCHAR)
        .column("CONTESTANT_NUMBER", ValueType.INTEGER)
        .column("CONTESTANT_VOTES", ValueType.BIGINT)
        .column("STATE_VOTES", ValueType.BIGINT);
    for (Leader leader : leaders) {
      table.row(leader.state(), leader.contestant(), leader.contestantVotes(), leader.stateVotes());
    }
    return table.build();
  }

  /** The leading contestant of {@code state}, its votes there, and all votes cast there. */
  record Leader(String state, int contestant, long contestantVotes, long stateVotes) {}
}
