// One snapshot of the Voter database as the page shows it: the standings
// (every contestant, with or without votes), the votes per state, and the
// number of Vote calls the server has finished so far.

import { callProcedure, countOf, rowsOf } from "./api.js";

const CONTESTANTS_SQL =
  "SELECT contestant_number, contestant_name FROM contestants ORDER BY contestant_number";
const VOTES_BY_STATE_SQL =
  "SELECT state, contestant_number, num_votes FROM v_votes_by_contestant_number_state";

/**
 * Reads the database with four calls made in parallel and resolves to
 * {standings, totalVotes, states, voteCalls}. Rejects with the first
 * ApiError.
 */
export async function fetchSnapshot() {
  const [results, contestants, byState, statistics] = await Promise.all([
    callProcedure("Results"),
    callProcedure("@AdHoc", [CONTESTANTS_SQL]),
    callProcedure("@AdHoc", [VOTES_BY_STATE_SQL]),
    callProcedure("@Statistics", ["PROCEDURE", 0]),
  ]);
  const standings = standingsOf(rowsOf(contestants[0]), rowsOf(results[0]));
  const totalVotes = standings.reduce((sum, entry) => sum + entry.votes, 0);
  for (const entry of standings) {
    entry.share = totalVotes > 0 ? entry.votes / totalVotes : 0;
  }
  return { standings, totalVotes, states: statesOf(rowsOf(byState[0])), voteCalls: voteCallsOf(rowsOf(statistics[0])) };
}

/**
 * Every contestant of the contestants table with its votes from Results
 * (0 when Results has no row for it), most votes first, then by number, as
 * Results orders them.
 */
function standingsOf(contestantRows, resultRows) {
  const byNumber = new Map();
  const entryFor = (number) => {
    if (!byNumber.has(number)) {
      byNumber.set(number, { number, name: null, votes: 0, share: 0 });
    }
    return byNumber.get(number);
  };
  for (const row of contestantRows) {
    if (row.CONTESTANT_NUMBER != null) {
      entryFor(row.CONTESTANT_NUMBER).name = row.CONTESTANT_NAME ?? null;
    }
  }
  for (const row of resultRows) {
    if (row.CONTESTANT_NUMBER != null) {
      const entry = entryFor(row.CONTESTANT_NUMBER);
      entry.votes = countOf(row.TOTAL_VOTES);
      entry.name = entry.name ?? row.CONTESTANT_NAME ?? null;
    }
  }
  return [...byNumber.values()].sort((a, b) => b.votes - a.votes || a.number - b.number);
}

/**
 * Map from state code to {state, votes, byContestant: Map(number → votes),
 * leader}; leader is the contestant number with the most votes there,
 * "tie" when several share the most, or null without votes. Rows with a NULL
 * state or contestant are skipped.
 */
function statesOf(rows) {
  const states = new Map();
  for (const row of rows) {
    const votes = countOf(row.NUM_VOTES);
    if (row.STATE == null || row.CONTESTANT_NUMBER == null || votes === 0) {
      continue;
    }
    const code = String(row.STATE).trim().toUpperCase();
    if (!states.has(code)) {
      states.set(code, { state: code, votes: 0, byContestant: new Map(), leader: null });
    }
    const entry = states.get(code);
    entry.votes += votes;
    entry.byContestant.set(row.CONTESTANT_NUMBER, (entry.byContestant.get(row.CONTESTANT_NUMBER) ?? 0) + votes);
  }
  for (const entry of states.values()) {
    entry.leader = leaderOf(entry.byContestant);
  }
  return states;
}

function leaderOf(byContestant) {
  let best = 0;
  let leaders = [];
  for (const [number, votes] of byContestant) {
    if (votes > best) {
      best = votes;
      leaders = [number];
    } else if (votes === best && votes > 0) {
      leaders.push(number);
    }
  }
  return leaders.length === 0 ? null : leaders.length === 1 ? leaders[0] : "tie";
}

/** Vote calls finished since the server started (all outcomes), from @Statistics PROCEDURE. */
function voteCallsOf(rows) {
  return rows
    .filter((row) => String(row.PROCEDURE_NAME).toUpperCase() === "VOTE")
    .reduce((sum, row) => sum + countOf(row.INVOCATIONS), 0);
}
