package org.partita.bench.voter;

import org.partita.client.ResultTable;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/** The standings: each contestant's name, number and total votes, most votes first. Multi-partition. */
public final class Results extends Procedure {
  public final SqlStmt standings = new SqlStmt(
      "SELECT c.contestant_name, c.contestant_number, SUM(v.num_votes) AS total_votes"
          + " FROM v_votes_by_contestant_number_state v, contestants c"
          + " WHERE c.contestant_number = v.contestant_number"
          + " GROUP BY c.contestant_name, c.contestant_number"
          + " ORDER BY total_votes DESC, contestant_number ASC");

  public ResultTable run() {
    queue(standings);
    return executeLast()[0];
  }
}
