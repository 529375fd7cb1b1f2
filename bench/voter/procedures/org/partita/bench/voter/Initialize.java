package org.partita.bench.voter;

import org.partita.client.ResultTable;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * Loads the contestants (the first {@code contestantCount} names of a
 * comma-separated list, numbered from 1) and the area codes, unless the
 * contestants are already there. Returns the number of contestants.
 * Multi-partition: it writes replicated tables.
 */
public final class Initialize extends Procedure {
  public final SqlStmt countContestants = new SqlStmt("SELECT COUNT(*) FROM contestants");
  public final SqlStmt insertContestant =
      new SqlStmt("INSERT INTO contestants (contestant_name, contestant_number) VALUES (?, ?)");
  public final SqlStmt insertAreaCode = new SqlStmt("INSERT INTO area_code_state VALUES (?, ?)");

  public long run(int contestantCount, String contestantNames) {
    queue(countContestants);
    final ResultTable existing = execute()[0];
    existing.advanceRow();
    if (existing.getLong(0) > 0) {
      return existing.getLong(0);
    }
    final String[] names = contestantNames.split(",");
    if (contestantCount < 1 || contestantCount > names.length) {
      abort("contestantCount must be between 1 and " + names.length + ", got " + contestantCount);
    }
    for (int i = 0; i < contestantCount; i++) {
      queue(insertContestant, names[i].trim(), i + 1);
    }
    final int[] codes = AreaCodes.CODES;
    for (int i = 0; i < codes.length; i++) {
      queue(insertAreaCode, (short) codes[i], AreaCodes.STATES[i]);
    }
    executeLast();
    return contestantCount;
  }
}
