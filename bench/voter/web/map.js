// The US map as a tile grid: one square per state and DC, placed on a
// grid of 8 rows × 11 columns that keeps each state near its neighbours.
// A tile's color is its leading contestant's; its strength, the state's
// votes against the state with the most.

import { colorOf, formatCompact, formatCount } from "./format.js";

/** state code → [row, column] */
const TILES = {
  AK: [0, 0], ME: [0, 10],
  VT: [1, 9], NH: [1, 10],
  WA: [2, 0], ID: [2, 1], MT: [2, 2], ND: [2, 3], MN: [2, 4], IL: [2, 5], WI: [2, 6], MI: [2, 7],
  NY: [2, 8], RI: [2, 9], MA: [2, 10],
  OR: [3, 0], NV: [3, 1], WY: [3, 2], SD: [3, 3], IA: [3, 4], IN: [3, 5], OH: [3, 6], PA: [3, 7],
  NJ: [3, 8], CT: [3, 9],
  CA: [4, 0], UT: [4, 1], CO: [4, 2], NE: [4, 3], MO: [4, 4], KY: [4, 5], WV: [4, 6], VA: [4, 7],
  MD: [4, 8], DE: [4, 9],
  AZ: [5, 1], NM: [5, 2], KS: [5, 3], AR: [5, 4], TN: [5, 5], NC: [5, 6], SC: [5, 7], DC: [5, 8],
  OK: [6, 3], LA: [6, 4], MS: [6, 5], AL: [6, 6], GA: [6, 7],
  HI: [7, 0], TX: [7, 3], FL: [7, 8],
};

/** The number of tiles: 50 states and DC. */
export const TILE_COUNT = Object.keys(TILES).length;

/** Creates one tile per state inside `container` (once, at start). */
export function buildMap(container) {
  for (const [state, [row, column]] of Object.entries(TILES)) {
    const tile = document.createElement("div");
    tile.className = "tile empty";
    tile.title = `${state}: no votes`;
    tile.dataset.state = state;
    tile.dataset.votes = "0";
    tile.dataset.leader = "";
    tile.style.gridRow = String(row + 1);
    tile.style.gridColumn = String(column + 1);
    const code = document.createElement("span");
    code.className = "code";
    code.textContent = state;
    const votes = document.createElement("span");
    votes.className = "count";
    tile.append(code, votes);
    container.append(tile);
  }
}

/**
 * Paints every tile from `states` (see voter.js) and lists in `others` the
 * states of the data that have no tile. `names` maps contestant number →
 * display name, for the tooltips.
 */
export function paintMap(container, others, states, names) {
  const busiest = Math.max(1, ...[...states.values()].map((entry) => entry.votes));
  for (const tile of container.querySelectorAll(".tile")) {
    paintTile(tile, states.get(tile.dataset.state), busiest, names);
  }
  const unplaced = [...states.values()].filter((entry) => !(entry.state in TILES));
  others.hidden = unplaced.length === 0;
  others.textContent = unplaced.length === 0 ? "" : "Votes from places without a tile: "
    + unplaced.map((entry) => `${entry.state} ${formatCount(entry.votes)}`).join(", ");
}

function paintTile(tile, entry, busiest, names) {
  const votes = entry ? entry.votes : 0;
  const leader = entry ? entry.leader : null;
  tile.dataset.votes = String(votes);
  tile.dataset.leader = leader == null ? "" : String(leader);
  tile.classList.toggle("empty", votes === 0);
  tile.classList.toggle("tie", leader === "tie");
  tile.style.setProperty("--tile-color", typeof leader === "number" ? colorOf(leader) : "#8a94a6");
  const strength = 0.35 + 0.65 * Math.sqrt(votes / busiest);
  tile.style.setProperty("--tile-strength", String(strength));
  tile.classList.toggle("pale", votes > 0 && strength < 0.7);
  tile.querySelector(".count").textContent = votes === 0 ? "" : formatCompact(votes);
  tile.title = tooltipOf(tile.dataset.state, entry, names);
}

function tooltipOf(state, entry, names) {
  if (!entry) {
    return `${state}: no votes`;
  }
  const lines = [...entry.byContestant.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([number, votes]) => `${names.get(number) ?? `Contestant ${number}`}: ${formatCount(votes)}`);
  return `${state}: ${formatCount(entry.votes)} votes\n${lines.join("\n")}`;
}
