package org.partita.bench.voter;

import org.partita.client.ResultTable;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * The heat map of the show: for every state with votes, the leading
 * contestant (most votes in that state; a tie goes to the lower number),
 * its votes there and the state's total. One row per state, by state:
 * STATE, CONTESTANT_NUMBER, CONTESTANT_VOTES, STATE_VOTES. Multi-partition
 * (it reads the votes view of every partition).
 */
public final class GetStateHeatmap extends Procedure {
  public final SqlStmt votesByState = StateLeaders.statement();

  public ResultTable run() {
    queue(votesByState);
    return StateLeaders.table(StateLeaders.leaders(executeLast()[0]));
  }
}
