// The Node Voter driver's command line: the options, defaults and checks of
// the Java and C++ drivers (bench/voter/README.md, "Driver options"), plus
// --workers, the number of forked worker processes.
export const MAX_CONTESTANTS = 1000;

const SPECS = [
  ['--servers', 'HOST:PORT,...', 'servers to connect to, comma-separated', 'list', 'servers'],
  ['--duration', 'S', 'measured seconds', 'double', 'durationS'],
  ['--warmup', 'S', 'seconds of warm-up before measuring, not counted in the figures', 'double', 'warmupS'],
  ['--mode', 'async|sync', 'async: up to the client\'s 4,096 calls in flight per worker; sync: --threads calls at a time per worker, each waiting for its answer', 'choice', 'mode'],
  ['--threads', 'N', 'calls at a time per worker in sync mode', 'int', 'threads'],
  ['--workers', 'N', 'worker processes (node:cluster), each with its own client and connections', 'int', 'workers'],
  ['--ratelimit', 'CALLS/S', 'calls per second over all workers, 0 = as fast as possible (call n at start + n/rate)', 'int', 'ratelimit'],
  ['--contestants', 'N', 'contestants', 'int', 'contestants'],
  ['--maxvotes', 'N', 'votes allowed per phone number', 'int', 'maxvotes'],
  ['--display-interval', 'S', 'seconds between progress lines', 'double', 'displayIntervalS'],
  ['--json', 'FILE', 'also write the result as one JSON object to FILE', 'string', 'json'],
];

export function defaults() {
  return { servers: ['127.0.0.1:21212'], durationS: 30, warmupS: 5, mode: 'async', threads: 16, workers: 1,
    ratelimit: 0, contestants: 6, maxvotes: 2, displayIntervalS: 5, json: '' };
}

export function usage() {
  const d = defaults();
  let s = 'Usage: bench/voter/node/voter.mjs [options]\n'
    + 'Run the Voter benchmark against Partita servers with the Voter schema (bench/voter/ddl.sql).\n'
    + 'Exit codes: 0 consistent, 1 consistency check failed, 2 bad options, 3 could not run.\n\nOptions:\n';
  for (const [name, label, help, , key] of SPECS) {
    const value = Array.isArray(d[key]) ? d[key].join(',') : d[key] === '' ? 'none' : String(d[key]);
    s += `  ${`${name} ${label}`.padEnd(28)} ${help} (default: ${value})\n`;
  }
  return `${s}  -h, --help                   this help\n`;
}

function convert(name, kind, v) {
  switch (kind) {
    case 'double': {
      const x = /^\s/.test(v) || v === '' ? NaN : Number(v);
      if (!Number.isFinite(x)) throw new Error(`${name} needs a number, got '${v}'`);
      return x;
    }
    case 'int':
      if (!/^[+-]?\d+$/.test(v)) throw new Error(`${name} needs a whole number, got '${v}'`);
      return Number(v);
    case 'choice':
      if (!['async', 'sync'].includes(v.toLowerCase())) throw new Error(`${name} must be one of async, sync, got '${v}'`);
      return v.toLowerCase();
    case 'list': {
      const items = v.split(',').map((x) => x.trim());
      if (items.some((x) => x === '')) throw new Error(`${name} needs comma-separated values without empty ones, got '${v}'`);
      return items;
    }
    default:
      return v;
  }
}

/** Returns { help: true }, or { options }, or throws an Error naming the option at fault. */
export function parse(argv) {
  const o = defaults();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h' || arg === '--help') return { help: true };
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    const spec = SPECS.find((s) => s[0] === name);
    if (!spec) throw new Error(`unknown option '${arg}' (see --help)`);
    let value;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (i + 1 < argv.length) value = argv[++i];
    else throw new Error(`${name} needs a value (${spec[1]})`);
    o[spec[4]] = convert(name, spec[3], value);
  }
  check(o);
  return { options: o };
}

function check(o) {
  if (!(o.durationS > 0)) throw new Error(`--duration must be more than 0 seconds, got ${o.durationS}`);
  if (!(o.warmupS >= 0)) throw new Error(`--warmup must be 0 or more seconds, got ${o.warmupS}`);
  if (o.threads < 1) throw new Error(`--threads must be at least 1, got ${o.threads}`);
  if (o.workers < 1 || o.workers > 256) throw new Error(`--workers must be between 1 and 256, got ${o.workers}`);
  if (o.ratelimit < 0) throw new Error(`--ratelimit must be 0 (none) or more calls/s, got ${o.ratelimit}`);
  if (o.contestants < 1 || o.contestants > MAX_CONTESTANTS) {
    throw new Error(`--contestants must be between 1 and ${MAX_CONTESTANTS}, got ${o.contestants}`);
  }
  if (o.maxvotes < 1) throw new Error(`--maxvotes must be at least 1, got ${o.maxvotes}`);
  if (!(o.displayIntervalS > 0)) throw new Error(`--display-interval must be more than 0 seconds, got ${o.displayIntervalS}`);
}
