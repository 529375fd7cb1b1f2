// The package as applications load it: CommonJS require, ES import, and
// TypeScript declarations that type the documented API.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

test('CommonJS and ES modules load the same API', async () => {
  const cjs = JSON.parse(execFileSync(process.execPath, ['-e',
    "const c = require('@partita/client'); console.log(JSON.stringify(Object.keys(c).sort()))"], { cwd: root }));
  const esm = Object.keys(await import('@partita/client')).sort();
  assert.deepEqual(cjs, esm);
  for (const name of ['connect', 'Client', 'ResultTable', 'ProcedureError', 'ConnectionLostError', 'CallTimeoutError', 'Decimal', 'Timestamp']) {
    assert.ok(esm.includes(name), name);
  }
});

test('the TypeScript declarations type a consumer of the documented API', () => {
  execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['--noEmit', '--strict', '--module', 'NodeNext',
    '--moduleResolution', 'NodeNext', '--target', 'ES2022', '--types', 'node', '--skipLibCheck', join(here, 'types', 'consumer.ts')],
  { cwd: root, stdio: 'pipe' });
});
