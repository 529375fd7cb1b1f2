// The live Voter results page: reads the database every 400 ms and paints
// the standings, the map and the rates; shows a banner while the server
// cannot be read and carries on when it can again.
//
// Thread model: the browser's one thread; a refresh starts only after the
// previous one has finished, so at most one snapshot is in flight.

import { fetchSnapshot } from "./voter.js";
import { RateMeter } from "./rate.js";
import { buildMap, paintMap, TILE_COUNT } from "./map.js";
import { displayName, paintStandings } from "./standings.js";
import { paintStateTable } from "./state-table.js";
import { colorOf, formatCount } from "./format.js";

const REFRESH_MS = 400;
const RETRY_MS = 1000;
const RATE_WINDOW_MS = 2000;
const STATE_TABLE_ROWS = 8;

const $ = (id) => document.getElementById(id);
const view = {
  banner: $("error-banner"),
  bannerTitle: $("error-title"),
  bannerText: $("error-text"),
  status: $("status"),
  total: $("total-votes"),
  tps: $("tps"),
  acceptedRate: $("accepted-rate"),
  statesReporting: $("states-reporting"),
  standings: $("standings-body"),
  stateTable: $("state-table-body"),
  legend: $("legend"),
  map: $("state-map"),
  otherStates: $("other-states"),
  lastUpdate: $("last-update"),
};

const callRate = new RateMeter(RATE_WINDOW_MS);
const voteRate = new RateMeter(RATE_WINDOW_MS);
const outage = { failures: 0, since: null };
let refreshes = 0;

async function refresh() {
  const started = performance.now();
  let delay = REFRESH_MS;
  try {
    const snapshot = await fetchSnapshot();
    show(snapshot, performance.now());
    endOutage();
  } catch (error) {
    showError(error);
    delay = RETRY_MS;
  }
  setTimeout(refresh, Math.max(0, delay - (performance.now() - started)));
}

function show(snapshot, nowMs) {
  refreshes += 1;
  document.body.dataset.refreshes = String(refreshes);
  setFigure(view.total, snapshot.totalVotes);
  callRate.add(nowMs, snapshot.voteCalls);
  voteRate.add(nowMs, snapshot.totalVotes);
  setFigure(view.tps, callRate.perSecond());
  setFigure(view.acceptedRate, voteRate.perSecond());
  setFigure(view.statesReporting, snapshot.states.size);
  view.statesReporting.textContent += ` / ${TILE_COUNT}`;
  paintStandings(view.standings, snapshot.standings);
  const names = new Map(snapshot.standings.map((entry) => [entry.number, displayName(entry)]));
  paintLegend(snapshot.standings);
  paintMap(view.map, view.otherStates, snapshot.states, names);
  paintStateTable(view.stateTable, snapshot.states, names, STATE_TABLE_ROWS);
  view.lastUpdate.textContent = new Date().toLocaleTimeString("en-GB");
}

/** Shows a figure with thousands separators, or "…" while it is not known (null). */
function setFigure(element, value) {
  element.dataset.value = value == null ? "" : String(Math.round(value));
  element.textContent = value == null ? "…" : formatCount(value);
}

function paintLegend(standings) {
  const items = [...standings].sort((a, b) => a.number - b.number)
    .map((entry) => legendItem(colorOf(entry.number), displayName(entry)));
  items.push(legendItem("#8a94a6", "tie"), legendItem("#e6e9ef", "no votes"));
  view.legend.replaceChildren(...items);
}

function legendItem(color, label) {
  const item = document.createElement("li");
  const swatch = document.createElement("span");
  swatch.className = "swatch";
  swatch.style.background = color;
  item.append(swatch, document.createTextNode(label));
  return item;
}

function showError(error) {
  outage.failures += 1;
  outage.since = outage.since ?? new Date();
  callRate.reset();
  voteRate.reset();
  setFigure(view.tps, null);
  setFigure(view.acceptedRate, null);
  const unreachable = error.kind === "unreachable";
  document.body.dataset.status = unreachable ? "offline" : "error";
  view.status.textContent = unreachable ? "offline" : "error";
  const what = unreachable
    ? `Cannot reach the Partita server at ${location.host}: ${error.message}.`
    : `The server answered with an error: ${error.message}.`;
  view.bannerTitle.textContent = unreachable ? "Server unreachable." : "Server error.";
  view.bannerText.textContent = `${what} Since ${outage.since.toLocaleTimeString("en-GB")}, `
    + `${outage.failures} failed attempt(s); retrying every second. `
    + (refreshes > 0 ? "The figures below are the last ones read." : "Nothing has been read yet.");
  view.banner.dataset.kind = unreachable ? "unreachable" : "error";
  view.banner.hidden = false;
}

function endOutage() {
  outage.failures = 0;
  outage.since = null;
  view.banner.hidden = true;
  view.banner.dataset.kind = "";
  document.body.dataset.status = "live";
  view.status.textContent = "live";
}

buildMap(view.map);
refresh();
