// The client against two scripted hosts of a cluster (fake-server.mjs): host
// discovery from one address, following a newer topology through
// @SystemCatalog PARTITIONS (an older one never replaces it), NOT_LEADER
// calls sent again at most twice, and calls whose outcome is unknown never
// sent again.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, test } from 'node:test';
import { ErrorCode, MAX_NOT_LEADER_RESENDS, ProcedureError, ConnectionLostError, connect } from '@partita/client';
import { closeAll, startFake, table, until } from './fake-server.mjs';

after(closeAll);

// Buckets below 8192 belong to partition 1, the rest to partition 0.
// From tests/vectors/partition_hash.tsv: phone 0 -> bucket 7924 (partition 1), 2^63-1 -> 9100 (partition 0).
const ON_1 = 0;
const ON_0 = 9223372036854775807n;
const bucketPartitions = Array.from({ length: 16384 }, (_, b) => (b < 8192 ? 1 : 0));
const PARTITIONS_COLUMNS = [['PARTITION_ID', 4], ['LEADER_HOST_ID', 4], ['TOPOLOGY_VERSION', 5]];
const NOT_LEADER = { status: 4, errorCode: ErrorCode.NOT_LEADER, errorName: 'NOT_LEADER', message: 'not the leader' };

/** Hosts 0 and 1 of a 2-partition cluster at topology version 1 (host i leads partition i), plus `extraHosts`. */
async function cluster(extraHosts = []) {
  const h0 = await startFake({ hostId: 0 });
  const h1 = await startFake({ hostId: 1 });
  const topology = { partitionCount: 2, partitionLeaders: [0, 1], bucketPartitions, topologyVersion: 1,
    hosts: [{ hostId: 0, address: '127.0.0.1', clientPort: h0.port }, { hostId: 1, address: '127.0.0.1', clientPort: h1.port },
      ...extraHosts] };
  h0.login.topology = topology;
  h1.login.topology = topology;
  return [h0, h1];
}

/** Answers @SystemCatalog PARTITIONS on `host` with `leaders` at `version`, and every other call with `others` (SUCCESS). */
function serveLeaders(host, leaders, version, others = {}) {
  host.partitionReads = 0;
  host.onInvocation = (e) => {
    if (e.invocation.procedure === '@SystemCatalog') {
      assert.equal(e.invocation.parameters[0].text, 'PARTITIONS');
      host.partitionReads++;
      host.answer(e, { topologyVersion: version, results: [table(PARTITIONS_COLUMNS, leaders.map((l, p) => [p, l, version]))] });
    } else {
      host.answer(e, { topologyVersion: version, ...others });
    }
  };
}

const votes = (host) => host.invocations.filter((e) => e.invocation.procedure === 'Vote');

test('one address is enough: the client connects to every host the login lists and routes to its leaders', async () => {
  const [h0, h1] = await cluster();
  h0.onInvocation = (e) => h0.answer(e);
  h1.onInvocation = (e) => h1.answer(e);
  const client = await connect({ servers: [h0.address] });
  const discovered = once(client, 'hostDiscovered');
  await until(() => client.connectedServers.length === 2);
  assert.deepEqual((await discovered)[0], { server: h1.address, hostId: 1 });
  await client.call('Vote', [ON_1, 1, 2]);
  await client.call('Vote', [ON_0, 1, 2]);
  assert.equal(votes(h1).length, 1, 'the call on partition 1 went to host 1');
  assert.equal(votes(h0).length, 1, 'the call on partition 0 went to host 0');
  await client.close();
});

test('discoverHosts: false keeps the client to the servers given', async () => {
  const [h0, h1] = await cluster();
  h0.onInvocation = (e) => h0.answer(e);
  const client = await connect({ servers: [h0.address], discoverHosts: false });
  await client.call('Vote', [ON_1, 1, 2]);  // partition 1's leader has no connection: it goes to host 0
  assert.equal(votes(h0).length, 1);
  assert.deepEqual(client.connectedServers, [h0.address]);
  assert.equal(h1.invocations.length, 0);
  await client.close();
});

test('a listed host that cannot be reached is reported with hostUnreachable and left', async () => {
  const gone = await startFake();
  const port = gone.port;
  await gone.close();
  const [h0, h1] = await cluster([{ hostId: 2, address: '127.0.0.1', clientPort: port }]);
  h0.onInvocation = (e) => h0.answer(e);
  h1.onInvocation = (e) => h1.answer(e);
  const client = await connect({ servers: [h0.address], connectTimeoutMs: 2000 });
  const [event] = await once(client, 'hostUnreachable');
  assert.equal(event.hostId, 2);
  assert.equal(event.server, `127.0.0.1:${port}`);
  assert.match(event.error.message, /cannot connect/);
  await until(() => client.connectedServers.length === 2);
  assert.ok(!client.connectedServers.includes(`127.0.0.1:${port}`));
  await client.call('Vote', [ON_1, 1, 2]);
  assert.equal(votes(h1).length, 1);
  await client.close();
});

test('an answer with a newer topology version makes the client read PARTITIONS once and route by it; an older login does not undo it', async () => {
  const [h0, h1] = await cluster();
  serveLeaders(h0, [0, 0], 2);  // host 0 knows version 2, where it leads both partitions
  h1.onInvocation = (e) => h1.answer(e, { topologyVersion: 1 });
  const client = await connect({ servers: [h0.address, h1.address] });
  await Promise.all([client.call('Vote', [ON_0, 1, 2]), client.call('Vote', [ON_0, 2, 2])]);
  await until(() => client.topology.topologyVersion === 2);
  assert.equal(h0.partitionReads, 1, 'one read for version 2, however many answers carried it');
  assert.deepEqual(client.topology.partitionLeaders, [0, 0]);
  await client.call('Vote', [ON_1, 1, 2]);
  assert.equal(votes(h0).length, 3, 'partition 1 now goes to host 0');
  assert.equal(votes(h1).length, 0);
  // Host 1 has not followed the failover: its login (version 1) must not bring back the old leaders.
  const reconnected = once(client, 'reconnected');
  h1.dropConnections();
  await reconnected;
  assert.equal(client.topology.topologyVersion, 2);
  assert.deepEqual(client.topology.partitionLeaders, [0, 0]);
  await client.close();
});

test('a call answered NOT_LEADER is sent again to the leader of the newest topology; the caller sees SUCCESS', async () => {
  const [h0, h1] = await cluster();
  serveLeaders(h0, [0, 0], 2);
  serveLeaders(h1, [0, 0], 2, NOT_LEADER);  // host 1 lost partition 1 to host 0 in version 2
  const client = await connect({ servers: [h0.address, h1.address] });
  const r = await client.call('Vote', [ON_1, 1, 2]);
  assert.equal(r.status, 'SUCCESS');
  assert.equal(votes(h1).length, 1);
  assert.equal(votes(h0).length, 1, 'sent again, to host 0');
  assert.equal(String(votes(h0)[0].invocation.clientHandle), String(votes(h1)[0].invocation.clientHandle), 'the same call');
  assert.equal(h1.partitionReads + h0.partitionReads, 1, 'the new leaders read once');
  assert.equal(client.resends, 1);
  await client.close();
});

test('a call answered NOT_LEADER by a leader behind the client\'s topology waits for it and runs there', async () => {
  // Host 1 leads partition 1 by topology 1, which its login reported, but answers NOT_LEADER naming topology 0
  // three times (hosts follow a new map some milliseconds apart).
  const [h0, h1] = await cluster();
  h0.onInvocation = (e) => h0.answer(e, { topologyVersion: 1 });
  let refusals = 0;
  h1.onInvocation = (e) => {
    if (e.invocation.procedure === 'Vote' && refusals < 3) {
      refusals++;
      h1.answer(e, { ...NOT_LEADER, topologyVersion: 0 });
    } else {
      h1.answer(e, { topologyVersion: 1 });
    }
  };
  const client = await connect({ servers: [h0.address, h1.address], discoverHosts: false });
  const r = await client.call('Vote', [ON_1, 1, 2]);
  assert.equal(r.status, 'SUCCESS');
  assert.equal(votes(h1).length, 4, 'three refusals, then it ran on host 1');
  assert.equal(votes(h0).length, 0);
  assert.equal(client.resends, 0, 'not counted against the NOT_LEADER resends');
  await client.close();
});

test('NOT_LEADER is sent again at most twice; then the caller sees it', async () => {
  const [h0, h1] = await cluster();
  // Each host says the other leads, at the same version (neither is behind the topology the client follows); the
  // client's own reads are never resent.
  serveLeaders(h0, [1, 1], 3, NOT_LEADER);
  serveLeaders(h1, [0, 0], 3, NOT_LEADER);
  const client = await connect({ servers: [h0.address, h1.address], discoverHosts: false });
  await assert.rejects(client.call('Vote', [ON_1, 1, 2]),
    (e) => e instanceof ProcedureError && e.errorName === 'NOT_LEADER');
  assert.equal(votes(h0).length + votes(h1).length, 1 + MAX_NOT_LEADER_RESENDS);
  assert.equal(client.resends, MAX_NOT_LEADER_RESENDS);
  const r = await client.call('Vote', [ON_1, 1, 2], { throwOnFailure: false });
  assert.equal(r.errorName, 'NOT_LEADER');
  assert.equal(votes(h0).length + votes(h1).length, 2 * (1 + MAX_NOT_LEADER_RESENDS));
  await client.close();
});

test('a call whose outcome is unknown (OUTCOME_UNKNOWN, a lost connection) is never sent again', async () => {
  const [h0, h1] = await cluster();
  let drop = false;
  h1.onInvocation = (e) => {
    if (drop) h1.dropConnections();
    else h1.answer(e, { status: 5, errorCode: ErrorCode.OUTCOME_UNKNOWN, errorName: 'OUTCOME_UNKNOWN', topologyVersion: 1 });
  };
  h0.onInvocation = (e) => h0.answer(e);
  const client = await connect({ servers: [h0.address, h1.address] });
  await assert.rejects(client.call('Vote', [ON_1, 1, 2]), (e) => e instanceof ProcedureError && e.errorName === 'OUTCOME_UNKNOWN');
  drop = true;
  await assert.rejects(client.call('Vote', [ON_1, 1, 2]), ConnectionLostError);
  // Any resend would have gone out before this call (it would follow at once): none did.
  await client.call('Vote', [ON_0, 1, 2]);
  assert.equal(votes(h1).length, 2);
  assert.equal(votes(h0).length, 1);
  assert.equal(client.resends, 0);
  await client.close();
});

test('a newer topology naming a leader whose connection waits out its reconnection backoff dials it at once', async () => {
  // Host 1 came back and was handed partition 1 again (docs/cluster.md, "Leader rebalancing") while the
  // client's connection to it backs off for a minute: only a dial at once reaches it within the test's bound.
  const [h0, h1] = await cluster();
  serveLeaders(h0, [0, 1], 3, NOT_LEADER);
  serveLeaders(h1, [0, 1], 3);
  const client = await connect({ servers: [h0.address, h1.address], reconnectInitialMs: 60_000,
    reconnectMaxMs: 60_000 });
  const backingOff = once(client, 'reconnecting');
  h1.dropConnections();
  await backingOff;
  const r = await client.call('Vote', [ON_1, 1, 2]);
  assert.equal(r.status, 'SUCCESS');
  assert.equal(votes(h0).length, 1, 'answered NOT_LEADER by host 0, naming topology 3');
  assert.equal(votes(h1).length, 1, 'sent again to host 1 once dialled');
  assert.equal(client.resends, 1);
  assert.deepEqual(client.connectedServers.sort(), [h0.address, h1.address].sort());
  await client.close();
});
