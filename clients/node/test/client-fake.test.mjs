// The client against scripted servers (fake-server.mjs): ordering, batching
// per event-loop turn, routing through the bucket table, error codes, route
// refresh, reconnect, timeouts, backpressure, refused logins, bad frames.
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { once } from 'node:events';
import { after, test } from 'node:test';
import {
  BackpressureError, CallTimeoutError, ConnectionLostError, ErrorCode, FrameTooLargeError, LoginRefusedError,
  NoConnectionsError, PartitaError, ProcedureError, bucketOfInteger, connect,
} from '@partita/client';
import { VOTE_ROUTES, closeAll, startFake, table, until } from './fake-server.mjs';

const fake = startFake;
after(closeAll);

test('answers in any order settle the calls they belong to', async () => {
  const s = await fake();
  const client = await connect(s.address);
  const calls = [1, 2, 3].map((i) => client.call('Vote', [i, 1, 2]));
  await until(() => s.invocations.length === 3);
  for (const entry of [...s.invocations].reverse()) {
    s.answer(entry, { results: [table([['V', 5]], [[Number(entry.invocation.parameters[0].integer)]])] });
  }
  assert.deepEqual((await Promise.all(calls)).map((r) => r.tables[0].get(0, 0)), [1n, 2n, 3n]);
  await client.close();
});

test('every call made in one event-loop turn goes out in one write, answers\' callbacks included', async () => {
  const s = await fake();
  s.onInvocation = (e) => { if (s.invocations.length <= 500) return; s.answer(e); };
  const client = await connect(s.address);
  const original = net.Socket.prototype.write;
  let writes = 0;
  net.Socket.prototype.write = function counted(...args) {
    if (this.remotePort === s.port) writes++;  // the client's writes, not the fake server's
    return original.apply(this, args);
  };
  try {
    const first = Array.from({ length: 500 }, (_, i) => client.call('Vote', [i, 1, 2]).then(() => client.call('Vote', [i, 2, 2])));
    assert.equal(writes, 0, 'nothing is written before the turn ends');
    await until(() => s.invocations.length === 500);
    assert.equal(writes, 1, 'the 500 calls of one turn share one write');
    const answers = Buffer.concat(s.invocations.map((e) => {
      let chunk;
      const socket = { write: (b) => { chunk = b; } };
      s.answer({ socket, invocation: e.invocation });
      return chunk;
    }));
    s.invocations[0].socket.write(answers);  // all 500 answers in one server write
    await Promise.all(first);
    assert.equal(writes, 2, 'the 500 calls made in the answers\' callbacks share one write');
  } finally {
    net.Socket.prototype.write = original;
  }
  await client.close();
});

test('single-partition calls go to the leader of the partition the bucket table names', async () => {
  // Buckets below 8192 belong to partition 1, the rest to partition 0: not what bucket mod 2 gives.
  const bucketPartitions = Array.from({ length: 16384 }, (_, b) => (b < 8192 ? 1 : 0));
  const topology = (port0, port1) => ({ partitionCount: 2, partitionLeaders: [0, 1], bucketPartitions,
    hosts: [{ hostId: 0, address: '127.0.0.1', clientPort: port0 }, { hostId: 1, address: '127.0.0.1', clientPort: port1 }] });
  const h0 = await fake({ hostId: 0 });
  const h1 = await fake({ hostId: 1 });
  h0.login.topology = topology(h0.port, h1.port);
  h1.login.topology = topology(h0.port, h1.port);
  h0.onInvocation = (e) => h0.answer(e);
  h1.onInvocation = (e) => h1.answer(e);
  const client = await connect({ servers: [h0.address, h1.address] });
  assert.equal(client.topology.bucketTable, true);
  // From tests/vectors/partition_hash.tsv: 0 -> bucket 7924, 6175551234 -> 973, 2^63-1 -> 9100.
  for (const [phone, partition] of [[0, 1], [6175551234, 1], [9223372036854775807n, 0]]) {
    assert.equal(bucketOfInteger(phone) < 8192 ? 1 : 0, partition);
    const [host, other] = partition === 1 ? [h1, h0] : [h0, h1];
    const before = other.invocations.length;
    await client.call('Vote', [phone, 1, 2]);
    const last = host.invocations.at(-1).invocation;
    assert.equal(last.routedPartitionPlusOne, partition + 1, `phone ${phone}`);
    assert.equal(other.invocations.length, before, `phone ${phone} went to the wrong host`);
  }
  await client.close();
});

test('without a bucket table (servers before v2) the partition is the bucket mod the partition count', async () => {
  const s = await fake({ topology: { partitionCount: 4, partitionLeaders: [0, 0, 0, 0] } });
  s.onInvocation = (e) => s.answer(e);
  const client = await connect(s.address);
  assert.equal(client.topology.bucketTable, false);
  await client.call('Vote', [6175551234, 1, 2]);
  assert.equal(s.invocations.at(-1).invocation.routedPartitionPlusOne, (973 % 4) + 1);
  await client.call('Vote', [null, 1, 2]);
  assert.equal(s.invocations.at(-1).invocation.routedPartitionPlusOne, 1, 'NULL routes to partition 0');
  await client.call('@AdHoc', ['SELECT 1']);
  assert.equal(s.invocations.at(-1).invocation.routedPartitionPlusOne, 0, 'system procedures are not routed');
  await client.close();
});

test('error codes: error_code when set, else the number of error_name', async () => {
  const s = await fake();
  const client = await connect(s.address);
  s.onInvocation = (e) => s.answer(e, { status: 4, errorCode: 22, errorName: '', message: 'no procedure Nope', results: [] });
  await assert.rejects(client.call('Nope'), (e) => e instanceof ProcedureError && e.code === 22
    && e.errorName === 'PROCEDURE_NOT_FOUND' && e.status === 'REJECTED' && /Nope: REJECTED PROCEDURE_NOT_FOUND/.test(e.message));
  s.onInvocation = (e) => s.answer(e, { status: 3, errorName: 'CONSTRAINT_VIOLATION', message: 'duplicate key', results: [] });
  await assert.rejects(client.call('Vote', [1, 1, 1]), (e) => e.code === ErrorCode.CONSTRAINT_VIOLATION && e.code === 2);
  const r = await client.call('Vote', [1, 1, 1], { throwOnFailure: false });
  assert.equal(r.ok, false);
  assert.equal(r.status, 'GRACEFUL_FAILURE');
  assert.equal(r.errorCode, 2);
  await client.close();
});

test('a newer catalog version in an answer refreshes the routes once with @SystemCatalog PROCEDURES', async () => {
  const s = await fake();
  let refreshes = 0;
  s.onInvocation = (e) => {
    if (e.invocation.procedure === '@SystemCatalog') {
      refreshes++;
      assert.equal(e.invocation.parameters[0].text, 'PROCEDURES');
      s.answer(e, { catalogVersion: 2, results: [table(
        [['PROCEDURE_NAME', 8], ['SINGLE_PARTITION', 2], ['PARTITION_PARAMETER', 4], ['PARTITION_TYPE', 4]],
        [['Vote', 1, 0, 5], ['Other', 0, -1, 0], ['ByName', 1, 1, 8]])] });
    } else {
      s.answer(e, { catalogVersion: 2 });
    }
  };
  const client = await connect(s.address);
  assert.equal(client.topology.catalogVersion, 1);
  assert.equal(client.topology.procedures, VOTE_ROUTES.length);
  await Promise.all([client.call('Vote', [1, 1, 2]), client.call('Vote', [2, 1, 2])]);
  await until(() => client.topology.catalogVersion === 2);
  assert.equal(client.topology.procedures, 3);
  await client.call('Vote', [3, 1, 2]);
  assert.equal(refreshes, 1);
  await client.close();
});

test('a dropped connection fails its calls with ConnectionLostError, then reconnects with backoff', async () => {
  const s = await fake();
  const client = await connect({ servers: s.address, reconnectInitialMs: 20 });
  const events = [];
  for (const name of ['connectionLost', 'reconnecting', 'reconnected']) client.on(name, (e) => events.push(name));
  const calls = [1, 2, 3].map((i) => client.call('Vote', [i, 1, 2]));
  await until(() => s.invocations.length === 3);
  s.dropConnections();
  for (const c of calls) {
    await assert.rejects(c, (e) => e instanceof ConnectionLostError && e.retriable && /Vote lost: connection to/.test(e.message));
  }
  await assert.rejects(client.call('Vote', [4, 1, 2]), NoConnectionsError);
  await until(() => events.includes('reconnected'));
  assert.deepEqual(events.slice(0, 2), ['connectionLost', 'reconnecting']);
  s.onInvocation = (e) => s.answer(e);
  assert.equal((await client.call('Vote', [5, 1, 2])).ok, true);
  await client.close();
});

test('a call without an answer times out with CallTimeoutError, and sends its time limit', async () => {
  const s = await fake();
  const client = await connect(s.address);
  const started = Date.now();
  await assert.rejects(client.call('Vote', [1, 1, 2], { timeoutMs: 50 }), (e) => e instanceof CallTimeoutError
    && e.timeoutMs === 50 && /timed out after 50 ms/.test(e.message));
  assert.ok(Date.now() - started < 2000);
  assert.equal(s.invocations[0].invocation.timeoutMillis, 50);
  await client.close();
});

test('backpressure: a call waits for a free slot, and fails with BackpressureError when none frees in time', async () => {
  const s = await fake();
  const client = await connect({ servers: s.address, maxInFlight: 2, backpressureTimeoutMs: 100 });
  const held = [client.call('Vote', [1, 1, 2]), client.call('Vote', [2, 1, 2])];
  await assert.rejects(client.call('Vote', [3, 1, 2]), BackpressureError);
  assert.equal(s.invocations.length, 2, 'the third call was never sent');
  const waiting = client.call('Vote', [4, 1, 2]);
  s.answer(s.invocations[0]);
  await held[0];
  await until(() => s.invocations.length === 3);
  assert.equal(Number(s.invocations[2].invocation.parameters[0].integer), 4);
  s.answer(s.invocations[1]);
  s.answer(s.invocations[2]);
  await Promise.all([held[1], waiting]);
  await client.close();
});

test('a refused login rejects connect once with LoginRefusedError', async () => {
  const s = await fake({ status: 3, message: 'shutting down' });
  await assert.rejects(connect(s.address), (e) => e instanceof LoginRefusedError
    && e.status === 'LOGIN_STATUS_SHUTTING_DOWN' && /shutting down/.test(e.message));
});

test('a frame larger than the server accepts is refused before sending; the connection goes on', async () => {
  const s = await fake();
  const client = await connect(s.address);
  await assert.rejects(client.call('Put', [Buffer.alloc(2 << 20)]), (e) => e instanceof FrameTooLargeError
    && e.limit === 1 << 20 && e.bytes > 2 << 20);
  s.onInvocation = (e) => s.answer(e);
  assert.equal((await client.call('Vote', [1, 1, 2])).ok, true);
  assert.equal(s.invocations.length, 1);
  await client.close();
});

test('a malformed frame from the server closes the connection and fails its calls', async () => {
  const s = await fake();
  const client = await connect({ servers: s.address, reconnect: false });
  const call = client.call('Vote', [1, 1, 2]);
  await until(() => s.invocations.length === 1);
  s.invocations[0].socket.write(Buffer.from([0, 0, 0, 3, 0xff, 0xff, 0xff]));
  await assert.rejects(call, (e) => e instanceof ConnectionLostError && /malformed frame/.test(e.message));
  await client.close();
});

test('close() fails calls in flight, and later calls are refused', async () => {
  const s = await fake();
  const client = await connect(s.address);
  const call = client.call('Vote', [1, 1, 2]);
  await until(() => s.invocations.length === 1);
  await client.close();
  await assert.rejects(call, (e) => e instanceof ConnectionLostError && /closed by the client/.test(e.message));
  await assert.rejects(client.call('Vote', [1, 1, 2]), (e) => e instanceof PartitaError && /client is closed/.test(e.message));
});

test('parameters JavaScript cannot send exactly are refused before anything is sent', async () => {
  const s = await fake();
  const client = await connect(s.address);
  await assert.rejects(client.call('Vote', [2 ** 60, 1, 2]), (e) => e instanceof RangeError && /parameter 1 .* pass a bigint/.test(e.message));
  await assert.rejects(client.call('Vote', [1n << 64n, 1, 2]), (e) => e instanceof RangeError && /outside the 64-bit/.test(e.message));
  await assert.rejects(client.call('Vote', [1, undefined, 2]), (e) => e instanceof TypeError && /parameter 2 is undefined/.test(e.message));
  await assert.rejects(client.call('Vote', [1, {}, 2]), (e) => e instanceof TypeError && /parameter 2 is Object/.test(e.message));
  await assert.rejects(client.call('Vote', [1, true, 2]), TypeError);
  await assert.rejects(client.call('Vote', [new Date(NaN)]), /invalid Date/);
  await assert.rejects(client.call('Vote', 'not an array'), /params must be an array/);
  await assert.rejects(client.call(''), /procedure must be a non-empty string/);
  await assert.rejects(connect({ servers: 'host:99999' }), /port '99999'/);
  assert.equal(s.invocations.length, 0);
  await client.close();
});
