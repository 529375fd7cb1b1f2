package org.partita.integration.procs;

import org.partita.client.ResultTable;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * Test procedure for QueryLimitsTest: records a vote for {@code phone}, then
 * runs a four-way cross join of {@code area_code_state} (a few hundred rows
 * after Initialize: billions of combinations) whose condition never holds.
 * It never finishes by itself; the server's time limit or @CancelQuery must
 * stop it and undo the vote. Partitioned like Vote, so it holds the
 * partition of {@code phone} while it runs.
 */
public final class VoteThenJoinForever extends Procedure {
  public final SqlStmt vote = new SqlStmt(
      "INSERT INTO votes (phone_number, state, contestant_number) VALUES (?, 'XX', 1)");
  public final SqlStmt forever = new SqlStmt("SELECT COUNT(*) FROM area_code_state a, area_code_state b, "
      + "area_code_state c, area_code_state d WHERE a.area_code + b.area_code + c.area_code + d.area_code < 0");

  public long run(long phone) {
    queue(vote, phone);
    execute();
    queue(forever);
    final ResultTable count = execute()[0];
    count.advanceRow();
    return count.getLong(0);
  }
}
