// The client against real `partita start` servers (Voter schema): login and
// routes, a Voter tally, every type through @AdHoc with parameters, errors
// with their codes, route refresh after DDL, oversize frames, and a server
// going away with calls in flight.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  ConnectionLostError, Decimal, ErrorCode, FrameTooLargeError, ProcedureError, Timestamp, connect,
} from '@partita/client';
import { startServer } from './partita-server.mjs';

const NAMES = 'Edwina Burnam,Tabatha Gehling,Kelly Clauss,Jessie Alloway,Alana Bregman,Jessie Eichman';
let server;
let client;

before(async () => {
  server = await startServer({ sites: 2 });
  client = await connect({ servers: server.address, clientName: 'node-test' });
});

after(async () => {
  await client?.close();
  await server?.stop();
});

test('logs in with the server\'s topology and the routes of its procedures', () => {
  const t = client.topology;
  assert.equal(t.partitionCount, 2);
  assert.equal(t.routing, true);
  assert.equal(t.partitionLeaders.length, 2);
  assert.ok(t.procedures >= 3, `${t.procedures} routes`);
  assert.ok(t.catalogVersion >= 1);
});

test('3,000 concurrent votes are counted exactly as Results reports them', async () => {
  const init = await client.call('Initialize', [6, NAMES]);
  assert.equal(init.tables[0].get(0, 0), 6n);
  const standings = async () => new Map((await client.call('Results')).tables[0].arrays().map((r) => [Number(r[1]), r[2]]));
  const before = await standings();
  const accepted = new Map();
  const votes = Array.from({ length: 3000 }, (_, i) => {
    const phone = 2125550000n + BigInt(i % 1500);  // each phone twice: the limit of 2 is never passed
    const contestant = 1 + (i % 7);               // 7 does not exist
    return client.call('Vote', [phone, contestant, 2n]).then((r) => {
      const code = r.tables[0].get(0, 0);
      if (code === 0n) accepted.set(contestant, (accepted.get(contestant) ?? 0n) + 1n);
      else assert.equal(code, contestant === 7 ? 1n : 2n);
    });
  });
  await Promise.all(votes);
  const afterVotes = await standings();
  for (let c = 1; c <= 6; c++) {
    assert.equal((afterVotes.get(c) ?? 0n) - (before.get(c) ?? 0n), accepted.get(c) ?? 0n, `contestant ${c}`);
  }
  const { rows } = await client.query('SELECT COUNT(*) AS n FROM votes WHERE state = ?', ['NY']);
  assert.equal(typeof rows[0].N, 'bigint');
  assert.ok(rows[0].N > 0n);
});

test('every type goes through @AdHoc parameters and comes back exact; DDL refreshes the routes', async () => {
  const version = client.topology.catalogVersion;
  await client.query('CREATE TABLE typed (id BIGINT NOT NULL PRIMARY KEY, t TINYINT, d DECIMAL, f FLOAT, '
    + 's VARCHAR(64), b VARBINARY(16), ts TIMESTAMP)');
  await client.query('PARTITION TABLE typed ON COLUMN id');
  const big = 2n ** 53n + 1n;
  const inserted = await client.query('INSERT INTO typed VALUES (?, ?, ?, ?, ?, ?, ?)',
    [big, -7, new Decimal('-12.5'), 1.5, 'héllo ✓', Buffer.from('0aff', 'hex'), new Timestamp(-1500n)]);
  assert.equal(inserted.tables[0].get(0, 0), 1n);
  await client.query('INSERT INTO typed VALUES (?, ?, ?, ?, ?, ?, ?)', [1n, null, null, null, null, null, null]);
  const { rows } = await client.query('SELECT id, t, d, f, s, b, ts FROM typed WHERE id = ?', [big]);
  assert.equal(rows.length, 1);
  const r = rows[0];
  assert.equal(r.ID, big);
  assert.equal(r.T, -7);
  assert.equal(r.D, '-12.5');
  assert.equal(r.F, 1.5);
  assert.equal(r.S, 'héllo ✓');
  assert.equal(Buffer.from(r.B).toString('hex'), '0aff');
  assert.ok(r.TS instanceof Date);
  assert.equal(r.TS.micros, -1500n);
  assert.equal(r.TS.toISOStringMicros(), '1969-12-31T23:59:59.998500Z');
  const nulls = (await client.query('SELECT t, d, s, ts FROM typed WHERE id = ?', [1])).rows[0];
  assert.deepEqual(nulls, { T: null, D: null, S: null, TS: null });
  // The DDL made a newer catalog; an answer carrying it made the client read the routes again.
  await client.call('Results');
  const end = Date.now() + 5000;
  while (client.topology.catalogVersion <= version && Date.now() < end) await new Promise((res) => setTimeout(res, 10));
  assert.ok(client.topology.catalogVersion > version, `catalog version ${client.topology.catalogVersion} after ${version}`);
});

test('failures reject with ProcedureError carrying the status and the error code', async () => {
  await assert.rejects(client.call('Vote', ['not a phone', 1, 2]), (e) => e instanceof ProcedureError
    && e.status === 'REJECTED' && e.errorName === 'BAD_PARAMETER' && e.code === ErrorCode.BAD_PARAMETER);
  await assert.rejects(client.call('NoSuchProcedure'), (e) => e instanceof ProcedureError
    && e.status === 'REJECTED' && ['NOT_FOUND', 'PROCEDURE_NOT_FOUND'].includes(e.errorName) && e.code === ErrorCode[e.errorName]);
  await client.query('CREATE TABLE once (k BIGINT NOT NULL PRIMARY KEY)');
  await client.query('INSERT INTO once VALUES (?)', [5]);
  await assert.rejects(client.query('INSERT INTO once VALUES (?)', [5]), (e) => e instanceof ProcedureError
    && e.status === 'GRACEFUL_FAILURE' && e.code === ErrorCode.CONSTRAINT_VIOLATION && /Partita|duplicate|unique|exists/i.test(e.message));
  await assert.rejects(client.query('SELEC nonsense'), (e) => e.code === ErrorCode.SQL_ERROR);
  const answer = await client.call('NoSuchProcedure', [], { throwOnFailure: false });
  assert.equal(answer.ok, false);
});

test('a call larger than the server\'s frame limit is refused before sending; the connection goes on', async () => {
  const probe = await client.call('Results');
  assert.ok(probe.ok);
  const huge = Buffer.alloc(33 * 1024 * 1024);
  await assert.rejects(client.query('SELECT ?', [huge]), (e) => e instanceof FrameTooLargeError && e.limit > 0);
  assert.ok((await client.call('Results')).ok);
});

test('a server going away fails every call in flight with ConnectionLostError', async () => {
  const doomed = await startServer({ sites: 1 });
  const c = await connect({ servers: doomed.address, reconnect: false });
  try {
    await c.call('Initialize', [6, NAMES]);
    const calls = Array.from({ length: 20_000 }, (_, i) => c.call('Vote', [3125550000 + i, 1 + (i % 6), 2]));
    const outcomes = calls.map((p) => p.then(() => 'answered', (e) => e));
    await Promise.race(calls);
    await doomed.kill();
    const settled = await Promise.all(outcomes);
    const lost = settled.filter((x) => x instanceof ConnectionLostError);
    assert.ok(lost.length > 0, 'some calls were in flight when the server died');
    assert.equal(lost.length + settled.filter((x) => x === 'answered').length, calls.length,
      `every call either answered or lost: ${settled.find((x) => x !== 'answered' && !(x instanceof ConnectionLostError))}`);
    assert.deepEqual(c.connectedServers, []);
  } finally {
    await c.close();
    await doomed.kill();
  }
});
