// The busiest states as a table: votes and leader, most votes first.

import { colorOf, formatCount, formatShare } from "./format.js";

/**
 * Replaces the rows of `body` with the `limit` states of `states` (see
 * voter.js) that have the most votes; `names` maps contestant number →
 * display name. Rows carry data-state, data-votes and data-leader.
 */
export function paintStateTable(body, states, names, limit) {
  const busiest = [...states.values()].sort((a, b) => b.votes - a.votes || a.state.localeCompare(b.state))
    .slice(0, limit);
  if (busiest.length === 0) {
    const row = document.createElement("tr");
    row.className = "no-votes";
    row.append(cell("", "No votes yet."));
    row.firstChild.colSpan = 4;
    body.replaceChildren(row);
    return;
  }
  body.replaceChildren(...busiest.map((entry) => rowOf(entry, names)));
}

function rowOf(entry, names) {
  const row = document.createElement("tr");
  row.dataset.state = entry.state;
  row.dataset.votes = String(entry.votes);
  row.dataset.leader = entry.leader == null ? "" : String(entry.leader);
  const leaderVotes = typeof entry.leader === "number" ? entry.byContestant.get(entry.leader) : 0;
  row.append(
    cell("state", entry.state),
    cell("votes", formatCount(entry.votes)),
    leaderCell(entry.leader, names),
    cell("share", leaderVotes > 0 ? formatShare(leaderVotes / entry.votes) : ""),
  );
  return row;
}

function leaderCell(leader, names) {
  if (typeof leader !== "number") {
    return cell("leader", leader === "tie" ? "tie" : "");
  }
  const td = cell("leader", "");
  const swatch = document.createElement("span");
  swatch.className = "swatch";
  swatch.style.background = colorOf(leader);
  td.append(swatch, document.createTextNode(names.get(leader) ?? `Contestant ${leader}`));
  return td;
}

function cell(className, text) {
  const td = document.createElement("td");
  td.className = className;
  td.textContent = text;
  return td;
}
