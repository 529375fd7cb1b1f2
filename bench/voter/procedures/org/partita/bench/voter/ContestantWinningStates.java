package org.partita.bench.voter;

import org.partita.client.ResultTable;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * The states where {@code contestantNumber} leads (as in
 * {@link GetStateHeatmap}), the most votes for it first (ties by state), at
 * most {@code max} rows: STATE, CONTESTANT_NUMBER, CONTESTANT_VOTES,
 * STATE_VOTES. An unknown contestant, or one that leads nowhere, gives no
 * rows; a negative {@code max} aborts. Multi-partition.
 */
public final class ContestantWinningStates extends Procedure {
  public final SqlStmt votesByState = StateLeaders.statement();

  public ResultTable run(int contestantNumber, int max) {
    if (max < 0) {
      abort("max must be 0 or more, got " + max);
    }
    queue(votesByState);
    return StateLeaders.table(StateLeaders.wonBy(StateLeaders.leaders(executeLast()[0]), contestantNumber, max));
  }
}
