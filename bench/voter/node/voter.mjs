#!/usr/bin/env node
// The Voter driver in Node.js (bench/voter/README.md, "Node driver"): the
// primary process loads the contestants, forks --workers worker processes
// with node:cluster (the layout of the published 64-process Node run), each
// with its own @partita/client and connections, firehosing Vote (async: up
// to 4,096 calls in flight per worker; sync: --threads calls at a time, each
// waiting for its answer). Workers report every display interval; the
// primary prints the progress lines, then the report of the C++ and Java
// drivers (throughput in total and per worker, latency, outcomes, standings,
// consistency check) and optionally the JSON.
//
// Votes are drawn as the Java and C++ drivers draw them (vote-generator.mjs):
// with one worker, from the run's seed; worker i of several, from the
// (i + 1)-th split of it.
//
// Exit codes: 0 consistent; 1 the consistency check failed; 2 bad options;
// 3 the run could not start or finish.
import cluster from 'node:cluster';
import { performance } from 'node:perf_hooks';
import { connect } from '../../../clients/node/dist/esm/index.js';
import { Latencies } from './latencies.mjs';
import { parse, usage } from './options.mjs';
import {
  addOutcomes, answered, checkConsistency, fixed, grouped, newOutcomes, readStandings, recordAnswer, reportText,
  writeJson,
} from './report.mjs';
import { SplitRandom } from './split-random.mjs';
import { VoteGenerator } from './vote-generator.mjs';

const EXIT_INCONSISTENT = 1;
const EXIT_BAD_OPTIONS = 2;
const EXIT_CANNOT_RUN = 3;
const ASYNC_IN_FLIGHT = 4096;
const WORKER_SEMI_SPACE_MB = 32;
const NAMES = ['Edwina Burnam', 'Tabatha Gehling', 'Kelly Clauss', 'Jessie Alloway', 'Alana Bregman', 'Jessie Eichman'];
const CONFIG_ENV = 'PARTITA_VOTER_WORKER';
const ANSWERS = { throwOnFailure: false };  // Vote's failures are counted, not thrown

const names = (n) => [...Array(n).keys()].map((i) => (i < 6 ? NAMES[i] : `Contestant ${i + 1}`)).join(',');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class CannotRun extends Error {}

// ---------------------------------------------------------------- primary

async function partitionCount(client) {
  try {
    const r = await client.call('@Statistics', ['PARTITION', 0]);
    const t = r.tables[0];
    const column = t.columnIndex('PARTITION_ID');
    if (column < 0) return 0;
    let n = 0;
    for (let row = 0; row < t.rowCount; row++) if (Number(t.get(row, column)) >= 0) n++;
    return n;
  } catch {
    return 0;
  }
}

async function primary() {
  let parsed;
  try {
    parsed = parse(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`voter: ${e.message}\n`);
    return EXIT_BAD_OPTIONS;
  }
  if (parsed.help) {
    process.stdout.write(usage());
    return 0;
  }
  const o = parsed.options;
  let client;
  try {
    client = await connect({ servers: o.servers, clientName: 'voter-driver-node', callTimeoutMs: 30_000 });
  } catch (e) {
    process.stderr.write(`voter: cannot start: ${e.message}\n`);
    return EXIT_CANNOT_RUN;
  }
  try {
    return await runPrimary(o, client);
  } catch (e) {
    if (!(e instanceof CannotRun)) throw e;
    process.stderr.write(`voter: ${e.message}\n`);
    return EXIT_CANNOT_RUN;
  } finally {
    await client.close();
  }
}

async function runPrimary(o, client) {
  let init;
  try {
    init = await client.call('Initialize', [o.contestants, names(o.contestants)]);
  } catch (e) {
    throw new CannotRun(`cannot start: Initialize: ${e.message}`);
  }
  const had = Number(init.tables[0]?.get(0, 0));
  if (had !== o.contestants) {
    console.log(`voter: note: the database already had ${had} contestant(s); votes for others are invalid`);
  }
  const before = await readStandings(client).catch((e) => { throw new CannotRun(`cannot start: ${e.message}`); });
  const partitions = await partitionCount(client);
  const servers = o.servers.join(',');
  const settings = {
    mode: o.mode, threads: o.mode === 'async' ? 1 : o.threads, ratelimit: o.ratelimit, servers, partitions,
    warmupS: o.warmupS, contestants: o.contestants, maxvotes: o.maxvotes, workers: o.workers,
    description: `${o.mode === 'async' ? 'async' : `sync, ${o.threads} threads`} ${o.workers} worker(s) `
      + `${o.ratelimit === 0 ? 'firehose' : `${grouped(o.ratelimit)} calls/s`} against ${servers} (${partitions} partition(s))`,
  };
  console.log(`voter: ${settings.description}, warm-up ${fixed(o.warmupS, 1)} s, then ${fixed(o.durationS, 1)} s measured`);

  const results = await runWorkers(o, BigInt(Date.now()) * 1_000_003n + process.hrtime.bigint());
  const warm = newOutcomes(o.contestants);
  const measured = newOutcomes(o.contestants);
  const latency = new Latencies();
  for (const r of results) {
    addOutcomes(warm, r.warm);
    addOutcomes(measured, r.measured);
    latency.add(r.latency);
  }
  const tpsPerWorker = results.map((r) => answered(r.measured) / r.seconds);
  // CPU time each worker spent per answered call (user + system, microseconds): its cost, whoever was the bottleneck.
  const cpuMicrosPerCall = results.map((r) => (r.cpuSeconds * 1e6) / Math.max(answered(r.measured), 1));
  let after;
  try {
    after = await readStandings(client);
  } catch (e) {
    throw new CannotRun(`cannot read the standings: ${e.message}`);
  }
  const report = {
    settings, measured, latency: latency.summary(), standings: after, tpsPerWorker, cpuMicrosPerCall,
    tps: tpsPerWorker.reduce((a, b) => a + b, 0),
    seconds: results.reduce((a, r) => a + r.seconds, 0) / results.length,
    consistency: checkConsistency(before, after, [warm, measured]),
  };
  process.stdout.write(reportText(report));
  if (o.json) {
    try {
      writeJson(o.json, report);
    } catch (e) {
      throw new CannotRun(`cannot write ${o.json}: ${e.message}`);
    }
  }
  return report.consistency.consistent ? 0 : EXIT_INCONSISTENT;
}

// Forks the workers, prints their progress, and returns what each measured.
function runWorkers(o, seed) {
  return new Promise((resolve, reject) => {
    const workers = [];
    const done = new Array(o.workers);
    const intervals = new Map();  // seq -> [{count, latency, phase}]
    let ready = 0;
    let finished = 0;
    const start = performance.now();
    let last = start;
    const fail = (why) => {
      for (const w of workers) w.process.kill();
      reject(new CannotRun(why));
    };
    const progress = (seq, parts) => {
      const now = performance.now();
      const latency = new Latencies();
      let count = 0;
      for (const p of parts) {
        latency.add(p.latency);
        count += p.count;
      }
      const s = latency.summary();
      const seconds = (now - last) / 1000;
      last = now;
      console.log(`voter: ${fixed((now - start) / 1000, 1).padStart(7)} s ${parts[0].phase.padEnd(8)} `
        + `${grouped(count / seconds).padStart(10)} calls/s  p50 ${fixed(s.p50Ms, 3).padStart(7)} ms  p99 ${fixed(s.p99Ms, 3).padStart(7)} ms`);
      intervals.delete(seq);
    };
    // A larger young generation: a worker allocates a few objects per call,
    // and 4,096 calls in flight keep many alive (fewer scavenges and promotions).
    cluster.setupPrimary({ execArgv: [...process.execArgv, `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`] });
    for (let index = 0; index < o.workers; index++) {
      const w = cluster.fork({ [CONFIG_ENV]: JSON.stringify({ options: o, seed: String(seed), index }) });
      workers.push(w);
      w.on('message', (m) => {
        if (m.type === 'ready' && ++ready === o.workers) {
          for (const x of workers) x.send({ type: 'start' });
        } else if (m.type === 'interval') {
          const parts = intervals.get(m.seq) ?? [];
          parts.push(m);
          intervals.set(m.seq, parts);
          if (parts.length === o.workers - finished) progress(m.seq, parts);
        } else if (m.type === 'done') {
          done[index] = m;
          if (++finished === o.workers) resolve(done);
        } else if (m.type === 'error') {
          fail(`worker ${index + 1}: ${m.message}`);
        }
      });
      w.on('exit', (code) => {
        if (done[index] === undefined) fail(`worker ${index + 1} exited (code ${code}) before finishing`);
      });
    }
  });
}

// ---------------------------------------------------------------- worker

function answerCode(response) {
  const t = response.tables[0];
  if (t === undefined || t.rowCount < 1 || t.columnCount < 1) return -1;
  const v = t.get(0, 0);
  return typeof v === 'bigint' || typeof v === 'number' ? Number(v) : -1;
}

async function worker() {
  const { options: o, seed, index } = JSON.parse(process.env[CONFIG_ENV]);
  const root = new VoteGenerator(o.contestants, new SplitRandom(BigInt(seed)));
  let generator = root;
  if (o.workers > 1) for (let i = 0; i <= index; i++) generator = root.split();
  const client = await connect({ servers: o.servers, clientName: `voter-driver-node-${index + 1}`, callTimeoutMs: 30_000 });
  process.send({ type: 'ready' });
  await new Promise((resolve) => process.once('message', resolve));

  const lanes = o.mode === 'async' ? ASYNC_IN_FLIGHT : o.threads;
  const rate = o.ratelimit / o.workers;  // calls/s of this worker
  const interval = { count: 0, latency: new Latencies(), phase: 'warm-up', seq: 0 };
  let measuring = null;
  const ticker = setInterval(() => {
    process.send({ type: 'interval', seq: interval.seq++, phase: interval.phase, count: interval.count, latency: interval.latency.toJSON() });
    interval.count = 0;
    interval.latency = new Latencies();
  }, o.displayIntervalS * 1000);

  const run = async (seconds, outcomes) => {
    const phaseStart = performance.now();
    const end = phaseStart + seconds * 1000;
    let n = 0;
    const lane = async () => {
      while (performance.now() < end) {
        if (rate > 0) {
          const wait = phaseStart + (n++ * 1000) / rate - performance.now();
          if (wait > 0) await sleep(wait);
          if (performance.now() >= end) return;
        }
        generator.next();
        const contestant = generator.contestant;
        const t0 = performance.now();
        try {
          const r = await client.call('Vote', [generator.phone, contestant, o.maxvotes], ANSWERS);
          const micros = (performance.now() - t0) * 1000;
          interval.count++;
          interval.latency.record(micros);
          measuring?.record(micros);
          if (r.ok) recordAnswer(outcomes, contestant, answerCode(r));
          else outcomes.failed++;
        } catch {
          outcomes.failed++;
        }
      }
    };
    await Promise.all(Array.from({ length: lanes }, lane));
  };

  const warm = newOutcomes(o.contestants);
  const measured = newOutcomes(o.contestants);
  await run(o.warmupS, warm);
  interval.phase = 'run';
  measuring = new Latencies();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await run(o.durationS, measured);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  clearInterval(ticker);
  await client.close();
  process.send({ type: 'done', warm, measured, latency: measuring.toJSON(), seconds, cpuSeconds }, () => process.exit(0));
}

if (cluster.isPrimary) {
  primary().then((code) => process.exit(code), (e) => {
    process.stderr.write(`voter: ${e.stack ?? e}\n`);
    process.exit(EXIT_CANNOT_RUN);
  });
} else {
  worker().catch((e) => {
    process.send({ type: 'error', message: e.message ?? String(e) }, () => process.exit(EXIT_CANNOT_RUN));
  });
}
