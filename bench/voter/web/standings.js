// The standings table: one row per contestant, most votes first.

import { colorOf, formatCount, formatShare } from "./format.js";

/**
 * Replaces the rows of `body` (a tbody) with `standings` (see voter.js).
 * Each row carries data-contestant, data-name, data-votes and data-rank for
 * readers other than people (tests, scripts).
 */
export function paintStandings(body, standings) {
  if (standings.length === 0) {
    body.replaceChildren(emptyRow());
    return;
  }
  const most = Math.max(0, ...standings.map((entry) => entry.votes));
  body.replaceChildren(...standings.map((entry, index) => rowOf(entry, index + 1, most)));
}

/** A contestant's display name: its name, or "Contestant N" when the name is NULL or blank. */
export function displayName(entry) {
  return entry.name != null && String(entry.name).trim() !== "" ? String(entry.name) : `Contestant ${entry.number}`;
}

function rowOf(entry, rank, most) {
  const row = document.createElement("tr");
  row.dataset.contestant = String(entry.number);
  row.dataset.name = displayName(entry);
  row.dataset.votes = String(entry.votes);
  row.dataset.rank = String(rank);
  row.append(
    cell("rank", String(rank)),
    nameCell(entry),
    cell("votes", formatCount(entry.votes)),
    cell("share", formatShare(entry.share)),
    barCell(entry, most),
  );
  return row;
}

function cell(className, text) {
  const td = document.createElement("td");
  td.className = className;
  td.textContent = text;
  return td;
}

function nameCell(entry) {
  const td = cell("name", "");
  const swatch = document.createElement("span");
  swatch.className = "swatch";
  swatch.style.background = colorOf(entry.number);
  td.append(swatch, document.createTextNode(displayName(entry)));
  return td;
}

/** A bar as long as the contestant's votes, the leader's filling the track. */
function barCell(entry, most) {
  const td = cell("bar", "");
  const track = document.createElement("div");
  track.className = "track";
  const fill = document.createElement("div");
  fill.className = "fill";
  fill.style.width = most > 0 ? `${((entry.votes / most) * 100).toFixed(2)}%` : "0%";
  fill.style.background = colorOf(entry.number);
  track.append(fill);
  td.append(track);
  return td;
}

function emptyRow() {
  const row = document.createElement("tr");
  row.className = "no-contestants";
  const td = cell("", "No contestants yet: the Initialize procedure loads them.");
  td.colSpan = 5;
  row.append(td);
  return row;
}
