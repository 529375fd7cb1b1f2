// The Node Voter driver's options, consistency check, number formatting and
// latency histogram (the same behaviour as the C++ driver's tests).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Latencies } from '../latencies.mjs';
import { defaults, parse, usage } from '../options.mjs';
import { checkConsistency, fixed, grouped, newOutcomes, recordAnswer, reportJson } from '../report.mjs';

test('options: the other drivers\' defaults, --workers, and errors naming the option', () => {
  assert.deepEqual(parse([]).options, defaults());
  const o = parse(['--servers', 'a:1, b:2', '--duration=7.5', '--workers', '3', '--mode', 'SYNC', '--json', 'x.json']).options;
  assert.deepEqual([o.servers, o.durationS, o.workers, o.mode, o.json], [['a:1', 'b:2'], 7.5, 3, 'sync', 'x.json']);
  assert.equal(parse(['--help']).help, true);
  assert.match(usage(), /--workers N .* \(default: 1\)/);
  for (const [args, message] of [
    [['--duration', '0'], /--duration must be more than 0/], [['--workers', '0'], /--workers must be between 1 and 256/],
    [['--threads', 'x'], /--threads needs a whole number, got 'x'/], [['--mode', 'fast'], /--mode must be one of async, sync/],
    [['--servers', 'a,,b'], /without empty ones/], [['--contestants', '1001'], /between 1 and 1000/],
    [['--ratelimit', '-1'], /--ratelimit must be 0/], [['--nope'], /unknown option '--nope'/], [['--json'], /--json needs a value/],
  ]) {
    assert.throws(() => parse(args), message, args.join(' '));
  }
});

test('consistency: passes when the database gained exactly the accepted votes, names the difference otherwise', () => {
  const before = { entries: [{ contestant: 1, name: 'A', votes: 10 }, { contestant: 2, name: 'B', votes: 5 }], voteRows: 15 };
  const warm = newOutcomes(2);
  const measured = newOutcomes(2);
  recordAnswer(warm, 1, 0);
  recordAnswer(measured, 2, 0);
  recordAnswer(measured, 2, 0);
  recordAnswer(measured, 3, 1);  // invalid contestant
  recordAnswer(measured, 1, 2);  // over the limit
  recordAnswer(measured, 1, 7);  // a code Vote never returns
  assert.deepEqual([measured.invalid, measured.overLimit, measured.failed], [1, 1, 1]);
  const good = { entries: [{ contestant: 1, name: 'A', votes: 11 }, { contestant: 2, name: 'B', votes: 7 }], voteRows: 18 };
  assert.equal(checkConsistency(before, good, [warm, measured]).consistent, true);
  const bad = { entries: [{ contestant: 1, name: 'A', votes: 12 }, { contestant: 2, name: 'B', votes: 7 }], voteRows: 19 };
  const c = checkConsistency(before, bad, [warm, measured]);
  assert.equal(c.consistent, false);
  assert.match(c.lines[0], /contestant 1 +driver +1 +database +2 +<-- differs/);
  assert.match(c.lines.at(-1), /all \(COUNT\(\*\) FROM votes\) +driver +3 +database +4/);
});

test('numbers print like the other drivers\' reports', () => {
  assert.equal(grouped(1234567.4), '1,234,567');
  assert.equal(grouped(-1234.5), '-1,235');
  assert.equal(fixed(0.0005, 3), '0.001');
  assert.equal(fixed(-0.0001, 3), '0.000');
  assert.equal(grouped(999), '999');
});

test('latencies: exact below a millisecond, within 1% above, mergeable across processes', () => {
  const a = new Latencies();
  const b = new Latencies();
  for (let us = 1; us <= 1000; us++) a.record(us);
  for (let i = 0; i < 1000; i++) b.record(100_000);
  assert.equal(a.percentileMicros(50), 500);
  assert.equal(a.percentileMicros(100), 1000);
  const merged = new Latencies();
  merged.add(a.toJSON());
  merged.add(JSON.parse(JSON.stringify(b.toJSON())));
  assert.equal(merged.count, 2000);
  assert.ok(Math.abs(merged.percentileMicros(99) - 100_000) / 100_000 < 0.01);
  assert.equal(merged.summary().maxMs, 100);
});

test('the JSON has the other drivers\' fields plus the workers\'', () => {
  const r = {
    settings: { mode: 'async', threads: 1, ratelimit: 0, servers: 's', partitions: 2, warmupS: 5, contestants: 6, maxvotes: 2, workers: 2 },
    measured: newOutcomes(6), latency: new Latencies().summary(), tps: 3, seconds: 1, tpsPerWorker: [1, 2],
    cpuMicrosPerCall: [9, 10], consistency: { consistent: true },
  };
  const j = reportJson(r);
  for (const key of ['driver', 'tps', 'avg_ms', 'p50_ms', 'p95_ms', 'p99_ms', 'p999_ms', 'max_ms', 'answered', 'accepted',
    'over_limit', 'invalid', 'failed', 'consistent', 'duration_s', 'mode', 'threads', 'ratelimit', 'servers', 'partitions',
    'warmup_s', 'contestants', 'maxvotes', 'workers', 'tps_per_worker', 'cpu_us_per_call']) {
    assert.ok(key in j, key);
  }
  assert.equal(j.driver, 'node');
});
