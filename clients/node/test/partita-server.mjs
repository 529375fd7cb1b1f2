// Starts a real `scripts/partita start` server for a test: the Voter schema
// on 127.0.0.1 and a free port, ready within 60 s or the start fails with the
// server's output. stop() sends SIGTERM to its pid (SIGKILL after 20 s);
// kill() sends SIGKILL at once (a server going away).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { VECTORS } from './vectors.mjs';

const ROOT = join(VECTORS, '..', '..');
const READY = /^partita: ready: client port ([^,\s]+)/m;

/** Writes user `user` with `roles` and `password` into the users file `file` with `partita passwd`. */
export async function passwd(file, user, roles, password) {
  const child = spawn(join(ROOT, 'scripts', 'partita'), ['passwd', '--iterations', '4096', '--users', file,
    '--roles', roles, user], { stdio: ['pipe', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk) => { errors += chunk; });
  child.stdin.end(`${password}\n`);
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`partita passwd failed: ${errors}`);
}

export async function startServer({ sites = 2, extraArgs = [] } = {}) {
  const classes = join(ROOT, 'bench', 'voter', 'target', 'classes');
  if (!existsSync(join(ROOT, 'host-java', 'server', 'target', 'classpath.txt')) || !existsSync(classes)) {
    throw new Error('the server is not built (host-java/server/target, bench/voter/target): run scripts/build first');
  }
  const child = spawn(join(ROOT, 'scripts', 'partita'), ['start', '--schema', join(ROOT, 'bench', 'voter', 'ddl.sql'),
    '--classes', classes, '--sites', String(sites), '--port', '0', '--http-port', '-1', ...extraArgs],
  { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const address = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail('was not ready within 60 s'), 60_000);
    function fail(why) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`partita start ${why}; its output:\n${output}`));
    }
    const read = (chunk) => {
      output += chunk;
      const m = READY.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', () => fail('exited'));
  });
  return {
    address,
    pid: child.pid,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
