// The cluster page (docs/cluster.md, "The cluster page"): reads
// @Statistics CLUSTER from the host serving the page every second and paints
// its hosts, partitions, recent changes and figures; shows a banner while the
// host cannot be read and carries on when it can again.
//
// Thread model: the browser's one thread; a refresh starts only after the
// previous one has finished, so at most one call is in flight.

const REFRESH_MS = 1000;
const TIMEOUT_MS = 2000;
// "?view=figures": only this host's figures, for another host's page to frame.
const FIGURES_ONLY = new URLSearchParams(location.search).get("view") === "figures";

const $ = (id) => document.getElementById(id);
const outage = { failures: 0, since: null };
let refreshes = 0;

/** Why a read failed: "unreachable" (no answer) or "error" (an answer that is not a success). */
class ReadError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

async function readCluster() {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  let response;
  try {
    response = await fetch("/api/1.0/", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ Procedure: "@Statistics", Parameters: ["CLUSTER"] }),
      cache: "no-store",
      signal: controller.signal,
    });
  } catch (error) {
    throw new ReadError("unreachable", error.name === "AbortError" ? `no answer within ${TIMEOUT_MS} ms`
      : "the host does not answer (connection refused or lost)");
  } finally {
    clearTimeout(timer);
  }
  let body;
  try {
    body = JSON.parse(await response.text());
  } catch {
    throw new ReadError("error", `HTTP ${response.status}, not a JSON answer`);
  }
  if (body.status !== 1) {
    throw new ReadError("error", `${body.statusString || `HTTP ${response.status}`}: ${body.message}`);
  }
  const [hosts, partitions, changes, figures] = body.results.map(rowsOf);
  return { hosts, partitions, changes, figures: figures[0] };
}

/** A result table's rows as objects keyed by upper-case column name. */
function rowsOf(table) {
  if (!table || !Array.isArray(table.columns) || !Array.isArray(table.data)) {
    return [];
  }
  const names = table.columns.map((column) => String(column.name).toUpperCase());
  return table.data.map((values) => Object.fromEntries(names.map((name, i) => [name, values[i]])));
}

async function refresh() {
  const started = performance.now();
  try {
    show(await readCluster());
    endOutage();
  } catch (error) {
    showError(error);
  }
  setTimeout(refresh, Math.max(0, REFRESH_MS - (performance.now() - started)));
}

function show(cluster) {
  refreshes += 1;
  document.body.dataset.refreshes = String(refreshes);
  const f = cluster.figures;
  document.body.dataset.selfHost = String(f.HOST_ID);
  $("seen-from").textContent = `as host ${f.HOST_ID} sees it`;
  // A rejoining host serves too: it takes connections and answers while it gets its copies back.
  const rejoining = cluster.hosts.filter((h) => h.STATE === "REJOINING").length;
  const serving = cluster.hosts.filter((h) => h.STATE === "SERVING").length + rejoining;
  setValue($("hosts-serving"), serving,
    `${serving} / ${cluster.hosts.length}${rejoining > 0 ? ` (${rejoining} rejoining)` : ""}`);
  setValue($("map-version"), f.TOPOLOGY_VERSION, String(f.TOPOLOGY_VERSION));
  $("embed-title").textContent = `host ${f.HOST_ID} (${location.host}): live`;
  setValue($("tps"), Math.round(f.THROUGHPUT_PER_SECOND), Math.round(f.THROUGHPUT_PER_SECOND).toLocaleString("en-US"));
  const latency = $("latency");
  latency.dataset.p50 = String(f.P50_LATENCY_US);
  latency.dataset.p99 = String(f.P99_LATENCY_US);
  latency.textContent = `${micros(f.P50_LATENCY_US)} / ${micros(f.P99_LATENCY_US)}`;
  if (!FIGURES_ONLY) {
    paintHosts(cluster.hosts);
    paintPartitions(cluster.partitions);
    paintChanges(cluster.changes);
    paintHostFrames(cluster.hosts);
  }
  $("last-update").textContent = new Date().toLocaleTimeString("en-GB");
}

function setValue(element, value, text) {
  element.dataset.value = String(value);
  element.textContent = text;
}

/** 850 → "850 µs", 12500 → "12.5 ms". */
function micros(value) {
  const us = Number(value) || 0;
  return us < 1000 ? `${us} µs` : `${(us / 1000).toFixed(us < 10000 ? 2 : 1)} ms`;
}

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) {
    td.className = className;
  }
  return td;
}

function paintHosts(hosts) {
  const rows = hosts.map((h) => {
    const tr = document.createElement("tr");
    tr.dataset.host = String(h.HOST_ID);
    tr.dataset.state = h.STATE;
    const state = document.createElement("td");
    const badge = document.createElement("span");
    badge.className = `state ${h.STATE.toLowerCase()}`;
    badge.textContent = h.STATE.toLowerCase();
    state.append(badge);
    const page = document.createElement("td");
    if (h.HTTP_ADDRESS && h.STATE !== "DEAD") {
      const link = document.createElement("a");
      link.href = `${location.protocol}//${h.HTTP_ADDRESS}/cluster`;
      link.textContent = h.HTTP_ADDRESS;
      page.append(link);
    } else {
      page.textContent = h.HTTP_ADDRESS || "-";
    }
    // No incarnation column: it is a 64-bit number, which a JavaScript number cannot hold exactly.
    tr.append(cell(`host ${h.HOST_ID}${h.IS_THIS_HOST ? " (this host)" : ""}`, "host"), state,
      cell(h.CLIENT_ADDRESS || "-"), page, cell(String(h.LEADS), "num"), cell(String(h.COPIES), "num"));
    return tr;
  });
  $("hosts-body").replaceChildren(...rows);
}

function paintPartitions(partitions) {
  const rows = partitions.map((p) => {
    const tr = document.createElement("tr");
    tr.dataset.partition = String(p.PARTITION_ID);
    tr.dataset.leader = String(p.LEADER_HOST_ID);
    tr.dataset.replicas = p.REPLICA_HOST_IDS;
    tr.dataset.epoch = String(p.EPOCH);
    tr.append(cell(`partition ${p.PARTITION_ID}`), cell(`host ${p.LEADER_HOST_ID}`),
      cell(p.REPLICA_HOST_IDS.split(",").map((h) => `host ${h}`).join(", ")), cell(String(p.EPOCH), "num"));
    return tr;
  });
  $("partitions-body").replaceChildren(...rows);
}

function paintChanges(changes) {
  // Newest metadata first; the changes one metadata carried keep their order (a host's death, then its partitions).
  const newestFirst = [...changes].sort((a, b) => Number(b.METADATA_INDEX) - Number(a.METADATA_INDEX));
  const rows = newestFirst.map((c) => {
    const tr = document.createElement("tr");
    tr.dataset.kind = c.KIND;
    tr.dataset.host = c.HOST_ID == null ? "" : String(c.HOST_ID);
    tr.dataset.partition = c.PARTITION_ID == null ? "" : String(c.PARTITION_ID);
    const seen = new Date(Math.floor(Number(c.SEEN_AT) / 1000));
    tr.append(cell(seen.toLocaleTimeString("en-GB")), cell(String(c.TOPOLOGY_VERSION), "num"),
      cell(c.DESCRIPTION));
    return tr;
  });
  $("changes-body").replaceChildren(...rows);
  $("no-changes").hidden = rows.length > 0;
}

// The other hosts' figures pages, framed: one frame per host address, kept across refreshes (the frames are
// touched only when the set of hosts or their states change: moving a frame would reload it); a dead host's goes.
const frames = new Map();
let framesShown = "";

function paintHostFrames(hosts) {
  const wanted = new Set();
  for (const h of hosts) {
    if (h.IS_THIS_HOST || !h.HTTP_ADDRESS) {
      continue;
    }
    const key = `${h.HOST_ID} ${h.HTTP_ADDRESS} ${h.STATE === "DEAD" ? "dead" : "up"}`;
    wanted.add(key);
    if (!frames.has(key)) {
      frames.set(key, hostFrame(h));
    }
  }
  for (const key of [...frames.keys()]) {
    if (!wanted.has(key)) {
      frames.delete(key);
    }
  }
  const ordered = [...frames.keys()].sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
  const shown = ordered.join("|");
  if (shown !== framesShown) {
    framesShown = shown;
    $("host-frames").replaceChildren(...ordered.map((key) => frames.get(key)));
  }
}

function hostFrame(h) {
  if (h.STATE === "DEAD") {
    const gone = document.createElement("div");
    gone.className = "host-frame dead";
    gone.dataset.host = String(h.HOST_ID);
    gone.textContent = `host ${h.HOST_ID} (${h.HTTP_ADDRESS}): dead`;
    return gone;
  }
  const frame = document.createElement("iframe");
  frame.className = "host-frame";
  frame.dataset.host = String(h.HOST_ID);
  frame.title = `host ${h.HOST_ID}'s figures`;
  frame.src = `${location.protocol}//${h.HTTP_ADDRESS}/cluster?view=figures`;
  return frame;
}

function showError(error) {
  outage.failures += 1;
  outage.since = outage.since ?? new Date();
  const unreachable = error.kind === "unreachable";
  document.body.dataset.status = unreachable ? "offline" : "error";
  $("status").textContent = unreachable ? "offline" : "error";
  $("error-title").textContent = unreachable ? "Host unreachable." : "Host error.";
  $("error-text").textContent = `${unreachable ? `Cannot reach the host at ${location.host}` : "The host answered"}: `
    + `${error.message}. Since ${outage.since.toLocaleTimeString("en-GB")}, ${outage.failures} failed attempt(s); `
    + "retrying every second. " + (refreshes > 0 ? "What is shown is the last read; another host's page may be live."
      : "Nothing has been read yet.");
  $("error-banner").hidden = false;
  $("embed-title").textContent = `${location.host}: ${unreachable ? "offline" : "error"}`;
}

function endOutage() {
  outage.failures = 0;
  outage.since = null;
  $("error-banner").hidden = true;
  document.body.dataset.status = "live";
  $("status").textContent = "live";
}

if (FIGURES_ONLY) {
  document.body.classList.add("figures-only");
  $("embed-title").hidden = false;
}
refresh();
