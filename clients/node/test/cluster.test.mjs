// The client against a real local cluster (partita-cluster.mjs: three hosts,
// K = 1, KV schema), one cluster for the file: one address is enough to
// reach every partition's leader, and after a kill -9 of a leader's host
// and the failover, calls on its partitions succeed through the client with
// no retry by the caller, also from a client idle during the failover.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connect } from '@partita/client';
import { startCluster } from './partita-cluster.mjs';
import { until } from './fake-server.mjs';

const METADATA_LEADER = 'failure detection: this voter leads the metadata group';
const VALUE = Buffer.from('value');
let cluster;
const clients = [];

async function client(options) {
  const c = await connect({ callTimeoutMs: 30_000, ...options });
  clients.push(c);
  return c;
}

before(async () => {
  cluster = await startCluster();
});

after(async () => {
  for (const c of clients) await c.close();
  await cluster?.stop();
});

test('one address is enough: the client connects to every host and sends each call to its partition\'s leader', async () => {
  const c = await client({ servers: cluster.servers[0] });
  await until(() => c.connectedServers.length === 3, 30_000);
  assert.deepEqual(new Set(c.connectedServers), new Set(cluster.servers));
  const t = c.topology;
  assert.equal(t.partitionCount, 3);  // 6 sites, two copies of each partition
  assert.equal(new Set(t.partitionLeaders).size, 3, 'every host leads partitions');
  // 300 keys hash over the 3 partitions; a call reaching a host that does not lead its partition would be
  // answered NOT_LEADER and sent again (counted in resends).
  for (let i = 0; i < 300; i++) await c.call('Put', [`key${i}`, VALUE]);
  assert.equal(c.resends, 0);
});

test('after kill -9 of a leader\'s host and the failover, its partitions answer again through the client', async () => {
  const c = await client({ servers: cluster.servers[0] });
  await until(() => c.connectedServers.length === 3, 30_000);
  const idle = await client({ servers: cluster.servers[1] });
  await until(() => idle.connectedServers.length === 3, 30_000);
  // The victim: a host other than the metadata group's leader, so that the group keeps its leader.
  await until(() => [0, 1, 2].some((i) => cluster.log(i).includes(METADATA_LEADER)), 30_000);
  const victim = ([0, 1, 2].find((i) => cluster.log(i).includes(METADATA_LEADER)) + 1) % 3;
  const hostId = c.topology.hosts.find((h) => `${h.address}:${h.clientPort}` === cluster.servers[victim]).hostId;
  assert.ok(c.topology.partitionLeaders.includes(hostId), `host ${victim} leads partitions`);
  // Keys of the victim's partitions: those its host serves when asked alone.
  const alone = await client({ servers: cluster.servers[victim], discoverHosts: false });
  const theirs = [];
  const others = [];
  for (let i = 0; theirs.length < 5 || others.length < 1; i++) {
    const r = await alone.call('Put', [`probe${i}`, VALUE], { throwOnFailure: false });
    (r.ok ? theirs : others).push(`probe${i}`);
  }
  await alone.close();
  const before = c.topology.topologyVersion;

  await cluster.kill(victim);
  // Wait for the observable state: the client routes by a topology where the victim leads nothing. Calls on a
  // surviving partition bring answers carrying the new topology version once the failover happened.
  const followed = () => c.topology.topologyVersion > before && !c.topology.partitionLeaders.includes(hostId);
  const deadline = Date.now() + 60_000;
  while (!followed()) {
    assert.ok(Date.now() < deadline, `no failover followed within 60 s: ${JSON.stringify(c.topology)}`);
    await c.call('Put', [others[0], VALUE], { throwOnFailure: false, timeoutMs: 5000 }).catch(() => {});
    await new Promise((r) => setTimeout(r, 20));
  }
  for (const key of theirs) {
    const r = await c.call('Put', [key, VALUE]);
    assert.equal(r.ok, true, key);
  }
  // A client idle through the failover routes by the old leaders: its calls are answered NOT_LEADER
  // (not run) or by the new leader, and it follows either way.
  for (const key of theirs) {
    const r = await idle.call('Get', [key]);
    assert.deepEqual(Buffer.from(r.tables[0].get(0, 0)), VALUE, key);
  }
  assert.ok(!idle.topology.partitionLeaders.includes(hostId), 'the idle client follows the new leaders');
});
