// The Voter driver's outcomes, standings, consistency check, report text and
// JSON: the same lines and fields as the C++ and Java drivers
// (bench/voter/cpp/voter_report.cc, consistency.cc), plus the workers and
// each worker's throughput.
import { writeFileSync } from 'node:fs';

export const ACCEPTED = 0;
export const INVALID_CONTESTANT = 1;
export const OVER_VOTE_LIMIT = 2;
const COUNT_VOTES = 'SELECT COUNT(*) FROM votes';

/** Counters of one phase: accepted votes by contestant (0..contestants + 1), rejections, failures. */
export function newOutcomes(contestants) {
  return { accepted: new Array(contestants + 2).fill(0), overLimit: 0, invalid: 0, failed: 0 };
}

export function recordAnswer(o, contestant, code) {
  if (code === ACCEPTED && contestant >= 0 && contestant < o.accepted.length) o.accepted[contestant]++;
  else if (code === OVER_VOTE_LIMIT) o.overLimit++;
  else if (code === INVALID_CONTESTANT) o.invalid++;
  else o.failed++;
}

export function addOutcomes(into, o) {
  o.accepted.forEach((n, i) => { into.accepted[i] += n; });
  into.overLimit += o.overLimit;
  into.invalid += o.invalid;
  into.failed += o.failed;
}

export const acceptedTotal = (o) => o.accepted.reduce((a, b) => a + b, 0);
export const answered = (o) => acceptedTotal(o) + o.overLimit + o.invalid;

/** Reads Results and COUNT(*) FROM votes: { entries: [{contestant, name, votes}], voteRows }. */
export async function readStandings(client) {
  const results = await client.call('Results');
  if (results.tables.length === 0) throw new Error('Results: the answer has no result table');
  const t = results.tables[0];
  if (t.columnCount < 3) throw new Error('Results: expected 3 columns (name, contestant, votes)');
  const entries = t.arrays().map((r) => ({ name: String(r[0]), contestant: Number(r[1]), votes: Number(r[2]) }));
  const count = await client.query(COUNT_VOTES);
  if (count.tables.length === 0 || count.tables[0].rowCount !== 1) throw new Error('@AdHoc: expected one count');
  return { entries, voteRows: Number(count.tables[0].get(0, 0)) };
}

const votesOf = (s, c) => s.entries.find((e) => e.contestant === c)?.votes ?? 0;

function line(what, counted, gained) {
  return `${what.padEnd(26)} driver ${grouped(counted).padStart(12)}  database ${grouped(gained).padStart(12)}`
    + (counted === gained ? '' : '  <-- differs');
}

/** The database's change against the accepted votes the driver counted (warm-up and measured). */
export function checkConsistency(before, after, phases) {
  const maxContestant = phases[0].accepted.length - 1;
  const contestants = new Set(after.entries.map((e) => e.contestant));
  for (let c = 1; c <= maxContestant; c++) contestants.add(c);
  let consistent = true;
  let total = 0;
  const lines = [];
  for (const c of [...contestants].sort((a, b) => a - b)) {
    const counted = phases.reduce((n, p) => n + (p.accepted[c] ?? 0), 0);
    total += counted;
    const gained = votesOf(after, c) - votesOf(before, c);
    if (counted === 0 && gained === 0 && c === maxContestant) continue;
    consistent &&= counted === gained;
    lines.push(line(`contestant ${c}`, counted, gained));
  }
  const rowsGained = after.voteRows - before.voteRows;
  consistent &&= total === rowsGained;
  lines.push(line('all (COUNT(*) FROM votes)', total, rowsGained));
  return { consistent, lines };
}

/** `v` with `decimals` digits, halves rounded away from zero (as Java's and the C++ driver's reports). */
export function fixed(v, decimals) {
  const scale = 10 ** decimals;
  const text = ((Math.sign(v) * Math.round(Math.abs(v) * scale)) / scale).toFixed(decimals);
  return /^-[0.]*$/.test(text) ? text.slice(1) : text;
}

export function grouped(v, decimals = 0) {
  const text = fixed(v, decimals);
  const [whole, fraction] = text.split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = sign ? whole.slice(1) : whole;
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (fraction ? `.${fraction}` : '');
}

/** The report's text (as the C++ driver prints it, plus per-worker throughput). */
export function reportText(r) {
  const l = r.latency;
  const m = r.measured;
  let s = `voter: ${r.settings.description}, ${fixed(r.seconds, 1)} s measured\n`;
  s += `  throughput  ${grouped(r.tps)} TPS (${grouped(answered(m))} answered)\n`;
  s += `  per worker  ${r.tpsPerWorker.map((t) => grouped(t)).join('  ')} TPS; CPU per call `
    + `${r.cpuMicrosPerCall.map((c) => fixed(c, 1)).join('  ')} µs\n`;
  s += `  latency ms  avg ${fixed(l.avgMs, 3)}  p50 ${fixed(l.p50Ms, 3)}  p95 ${fixed(l.p95Ms, 3)}  p99 ${fixed(l.p99Ms, 3)}`
    + `  p99.9 ${fixed(l.p999Ms, 3)}  max ${fixed(l.maxMs, 3)}\n`;
  s += `  outcomes    accepted ${grouped(acceptedTotal(m))}  rejected over the limit ${grouped(m.overLimit)}`
    + `  rejected invalid contestant ${grouped(m.invalid)}  failed ${grouped(m.failed)}\n`;
  s += '  standings\n';
  r.standings.entries.forEach((e, i) => {
    s += `    ${String(i + 1).padStart(2)}. ${e.name.padEnd(24)} #${String(e.contestant).padEnd(3)} ${grouped(e.votes).padStart(12)}\n`;
  });
  s += `  consistency ${r.consistency.consistent ? 'OK' : 'FAILED'}: accepted votes counted by the driver (warm-up and measured) against the database's change\n`;
  for (const x of r.consistency.lines) s += `    ${x}\n`;
  return s;
}

/** The JSON object of the C++ and Java drivers, with "driver": "node", workers, tps_per_worker and cpu_us_per_call. */
export function reportJson(r) {
  const st = r.settings;
  const m = r.measured;
  const l = r.latency;
  return {
    driver: 'node', tps: r.tps, avg_ms: l.avgMs, p50_ms: l.p50Ms, p95_ms: l.p95Ms, p99_ms: l.p99Ms,
    p999_ms: l.p999Ms, max_ms: l.maxMs, answered: answered(m), accepted: acceptedTotal(m),
    over_limit: m.overLimit, invalid: m.invalid, failed: m.failed, consistent: r.consistency.consistent,
    duration_s: r.seconds, mode: st.mode, threads: st.threads, ratelimit: st.ratelimit, servers: st.servers,
    partitions: st.partitions, warmup_s: st.warmupS, contestants: st.contestants, maxvotes: st.maxvotes,
    workers: st.workers, tps_per_worker: r.tpsPerWorker, cpu_us_per_call: r.cpuMicrosPerCall,
  };
}

export function writeJson(path, r) {
  const j = reportJson(r);
  const body = Object.entries(j).map(([k, v]) => `  ${JSON.stringify(k)} : ${JSON.stringify(v)}`).join(',\n');
  writeFileSync(path, `{\n${body}\n}\n`);
}
