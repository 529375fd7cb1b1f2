// Starts a real local cluster for a test with scripts/cluster: three hosts on
// 127.0.0.1-3, K = 1, two sites each, the KV schema (bench/kv/ddl.sql), in a
// temporary directory, on a free internal port pair and free client ports;
// ready within 180 s or the start fails with the script's output. kill(i)
// sends SIGKILL to host i by its pid (scripts/cluster kill); stop() stops
// every host by pid (SIGTERM, SIGKILL after 30 s) and removes the directory.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { VECTORS } from './vectors.mjs';

const ROOT = join(VECTORS, '..', '..');
const CLUSTER = join(ROOT, 'scripts', 'cluster');
const run = promisify(execFile);

// True when `port` can be bound on each of 127.0.0.1..n.
async function free(port, n) {
  for (let i = 1; i <= n; i++) {
    const ok = await new Promise((resolve) => {
      const s = net.createServer();
      s.once('error', () => resolve(false));
      s.listen(port, `127.0.0.${i}`, () => s.close(() => resolve(true)));
    });
    if (!ok) return false;
  }
  return true;
}

async function freePortPair(n) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 40000);
    if (await free(port, n) && await free(port + 1, n)) return port;
  }
  throw new Error(`no port P with P and P+1 free on 127.0.0.1-${n}`);
}

export async function startCluster({ hosts = 3 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'partita-node-cluster-'));
  const env = { ...process.env, PARTITA_CLUSTER_DIR: dir, PARTITA_CLUSTER_START_TIMEOUT: '180' };
  const cluster = (...args) => run(CLUSTER, args, { env, timeout: 240_000 });
  try {
    await cluster('start', '--hosts', String(hosts), '--kfactor', '1', '--sites-per-host', '2',
      '--schema', join(ROOT, 'bench', 'kv', 'ddl.sql'), '--port', '0', '--http-port', '-1',
      '--internal-port', String(await freePortPair(hosts)));
  } catch (e) {
    await cluster('stop').catch(() => {});
    throw new Error(`scripts/cluster start failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
  return {
    servers: readFileSync(join(dir, 'servers'), 'utf8').trim().split(','),
    /** Host i's log so far. */
    log: (i) => readFileSync(join(dir, `host-${i}.log`), 'utf8'),
    kill: (i) => cluster('kill', String(i)),
    async stop() {
      await cluster('stop').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
