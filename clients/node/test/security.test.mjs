// The client against a real server started with --users (docs/security.md):
// the SCRAM-SHA-256 login against RFC 7677's example and the server, a
// permission denial, and refusals for a wrong password and no credentials.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { LoginRefusedError, ProcedureError, connect } from '@partita/client';
import { ScramClient } from '../dist/esm/scram.js';
import { passwd, startServer } from './partita-server.mjs';

let dir;
let server;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'partita-node-security-'));
  const users = join(dir, 'users');
  await passwd(users, 'admin', 'administrator', 'node-secret');
  await passwd(users, 'alice', 'user', 'alice-secret');
  server = await startServer({ sites: 1, extraArgs: ['--users', users] });
});

after(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('reproduces the SCRAM-SHA-256 example of RFC 7677', () => {
  const scram = new ScramClient('user', 'pencil', 'rOprNGfwEbeRWgbNEkqO');
  assert.equal(scram.clientFirst(), 'n,,n=user,r=rOprNGfwEbeRWgbNEkqO');
  assert.equal(scram.clientFinal('r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096'),
    'c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=');
  assert.ok(scram.verifyServerFinal('v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4='));
  assert.ok(!scram.verifyServerFinal('v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4='));
  assert.throws(() => new ScramClient('u', 'p', 'abc').clientFinal('r=abcd,s=AAAA,i=1'), /4096/);
});

test('logs in with a password and is held to its roles', async () => {
  const admin = await connect({ servers: server.address, user: 'admin', password: 'node-secret', reconnect: false });
  const alice = await connect({ servers: server.address, user: 'alice', password: 'alice-secret', reconnect: false });
  try {
    assert.equal((await admin.call('@Ping')).ok, true);
    await assert.rejects(alice.call('@Shutdown'), (e) => e instanceof ProcedureError
      && e.response.errorName === 'PERMISSION_DENIED' && /ADMIN/.test(e.message));
  } finally {
    await alice.close();
    await admin.close();
  }
});

test('a wrong password and no credentials are refused clearly', async () => {
  await assert.rejects(connect({ servers: server.address, user: 'alice', password: 'wrong', reconnect: false }),
    (e) => e instanceof LoginRefusedError && /AUTHENTICATION_FAILED/.test(e.message));
  await assert.rejects(connect({ servers: server.address, reconnect: false }),
    (e) => e instanceof LoginRefusedError && /AUTHENTICATION_REQUIRED/.test(e.message));
});

test('speaks TLS to a server it trusts, and refuses one it does not', async () => {
  const store = join(dir, 'server.p12');
  const pem = join(dir, 'server.pem');
  execFileSync('keytool', ['-genkeypair', '-alias', 'server', '-keyalg', 'EC', '-groupname', 'secp256r1', '-validity',
    '2', '-dname', 'CN=localhost', '-ext', 'SAN=dns:localhost', '-storetype', 'PKCS12', '-keystore', store,
    '-storepass', 'node-store'], { stdio: 'ignore' });
  execFileSync('keytool', ['-exportcert', '-rfc', '-alias', 'server', '-keystore', store, '-storepass', 'node-store',
    '-file', pem], { stdio: 'ignore' });
  const tlsServer = await startServer({ sites: 1, extraArgs: ['--tls-keystore', store, '--tls-keystore-password',
    'node-store'] });
  try {
    const port = tlsServer.address.split(':').pop();
    const client = await connect({ servers: `localhost:${port}`, tls: { ca: readFileSync(pem) }, reconnect: false });
    try {
      assert.equal((await client.call('@Ping')).ok, true);
    } finally {
      await client.close();
    }
    await assert.rejects(connect({ servers: `localhost:${port}`, tls: {}, reconnect: false }),
      /self-signed|certificate/);
    await assert.rejects(connect({ servers: `localhost:${port}`, reconnect: false, connectTimeoutMs: 5000 }));
  } finally {
    await tlsServer.stop();
  }
});
