package org.partita.bench.voter;

import org.partita.client.ResultTable;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * Records one vote. A vote for a contestant that does not exist is rejected
 * (1); a phone number that already cast its maximum number of votes is
 * rejected (2); otherwise the vote is stored with the caller's state, looked
 * up from the area code, and accepted (0). Single-partition on the phone
 * number.
 */
public final class Vote extends Procedure {
  public static final long ACCEPTED = 0;
  public static final long INVALID_CONTESTANT = 1;
  public static final long OVER_VOTE_LIMIT = 2;

  /** Phone numbers are area code × 10^7 + a 7-digit number. */
  private static final long AREA_CODE_DIVISOR = 10_000_000L;
  private static final String UNKNOWN_STATE = "XX";

  /** Does the contestant exist? */
  public final SqlStmt findContestant =
      new SqlStmt("SELECT contestant_number FROM contestants WHERE contestant_number = ?");
  /** How many votes has this phone cast? */
  public final SqlStmt countVotes =
      new SqlStmt("SELECT num_votes FROM v_votes_by_phone_number WHERE phone_number = ?");
  /** The caller's state. */
  public final SqlStmt findState = new SqlStmt("SELECT state FROM area_code_state WHERE area_code = ?");
  /** The vote itself. */
  public final SqlStmt insertVote =
      new SqlStmt("INSERT INTO votes (phone_number, state, contestant_number) VALUES (?, ?, ?)");

  public long run(long phoneNumber, int contestantNumber, long maxVotesPerPhone) {
    // queue(stmt).add(...): the parameters go to the engine unboxed, without a varargs array.
    queue(findContestant).add(contestantNumber);
    queue(countVotes).add(phoneNumber);
    queue(findState).add(phoneNumber / AREA_CODE_DIVISOR);
    // The checks' tables are only read here, before the next batch: reusable ones need no new objects.
    final ResultTable[] checks = executeReusingTables();
    if (checks[0].rowCount() == 0) {
      return INVALID_CONTESTANT;
    }
    if (checks[1].advanceRow() && checks[1].getLong(0) >= maxVotesPerPhone) {
      return OVER_VOTE_LIMIT;
    }
    final String state = checks[2].advanceRow() ? checks[2].getString(0) : UNKNOWN_STATE;
    queue(insertVote).add(phoneNumber).add(state).add(contestantNumber);
    executeLastReusingTables();
    return ACCEPTED;
  }
}
