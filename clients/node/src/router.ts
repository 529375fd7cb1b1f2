// Router: where a call goes. From a login answer it keeps the topology
// (partition count, the bucket -> partition table, each partition's leader
// host) and every procedure's route; for a single-partition procedure it
// hashes the partitioning parameter (partition-hash.ts) and picks the
// connection to the partition's leader. Everything else, and a call whose
// leader has no connection up, goes round-robin over the connections up.
// After a failover the leaders come from @SystemCatalog PARTITIONS
// (followLeaders); an older topology never replaces a newer one.
//
// Servers before protocol v2 send no bucket table: then the partition is the
// bucket mod the partition count, which is what they compute.
// Thread model: JavaScript's single thread; owned by the Client.

import type { Connection } from './connection.js';
import { BUCKET_BITS, HASH_ALGORITHM, bucketOfBytes, bucketOfInteger } from './partition-hash.js';
import type { ResultTable } from './result-table.js';
import { Timestamp, ValueType } from './values.js';
import type { partita } from './gen/proto.js';

interface Route {
  singlePartition: boolean;
  parameter: number;
  type: number;
}

/** What the client knows of the cluster (Client.topology). */
export interface TopologyView {
  partitionCount: number;
  /** The leader host id of each partition. */
  partitionLeaders: readonly number[];
  /** True when the server sent its bucket -> partition table (else bucket mod partitionCount). */
  bucketTable: boolean;
  hosts: readonly { hostId: number; address: string; clientPort: number }[];
  catalogVersion: number;
  topologyVersion: number;
  procedures: number;
  /** True when the hash specification is one this client computes (else calls are not routed). */
  routing: boolean;
}

export class Router {
  private routes = new Map<string, Route>();
  private partitionCount = 0;
  private leaders: number[] = [];
  private buckets: Uint32Array | null = null;
  private hosts: TopologyView['hosts'] = [];
  private hashKnown = false;
  private connections: Connection[] = [];
  private byHost = new Map<number, Connection>();
  private next = 0;
  catalogVersion = 0;
  topologyVersion = 0;

  /** Takes the topology and routes of a login answer (routes only if not older than those held). */
  loggedIn(login: partita.client.ILoginResponse): void {
    const topology = login.topology ?? {};
    const hash = login.hash ?? {};
    this.hashKnown = hash.algorithm === HASH_ALGORITHM && hash.bucketBits === BUCKET_BITS;
    this.partitionCount = topology.partitionCount ?? 0;
    const leaders = topology.partitionLeaders ?? [];
    const table = topology.bucketPartitions ?? [];
    this.buckets = table.length === 1 << BUCKET_BITS && table.every((p) => p < this.partitionCount)
      ? Uint32Array.from(table) : null;
    this.hashKnown &&= table.length === 0 || this.buckets !== null;
    const topologyVersion = Number(topology.topologyVersion ?? 0);
    if (topologyVersion >= this.topologyVersion || leaders.length !== this.leaders.length) {
      // An older topology (a host that has not followed a failover yet) never replaces a newer one.
      this.leaders = leaders.length === this.partitionCount ? [...leaders] : [];
      this.hosts = (topology.hosts ?? []).map((h) => ({ hostId: h.hostId ?? 0, address: h.address ?? '', clientPort: h.clientPort ?? 0 }));
      this.topologyVersion = topologyVersion;
    }
    const version = Number(login.catalogVersion ?? 0);
    if (version >= this.catalogVersion) {
      this.catalogVersion = version;
      this.routes = new Map();
      for (const p of login.procedures ?? []) {
        this.routes.set((p.name ?? '').toLowerCase(),
          { singlePartition: !!p.singlePartition, parameter: p.partitionParameter ?? 0, type: p.partitionType ?? 0 });
      }
    }
  }

  /**
   * Replaces the routes with those of @SystemCatalog PROCEDURES read at
   * catalog `version`. Returns false when the table lacks the contract's columns.
   */
  updateRoutes(version: number, table: ResultTable): boolean {
    const name = table.columnIndex('PROCEDURE_NAME');
    const single = table.columnIndex('SINGLE_PARTITION');
    const parameter = table.columnIndex('PARTITION_PARAMETER');
    const type = table.columnIndex('PARTITION_TYPE');
    if (name < 0 || single < 0 || parameter < 0 || type < 0) return false;
    if (version <= this.catalogVersion) return true;
    const routes = new Map<string, Route>();
    for (let r = 0; r < table.rowCount; r++) {
      routes.set(String(table.get(r, name)).toLowerCase(), {
        singlePartition: Number(table.get(r, single)) !== 0,
        parameter: Math.max(Number(table.get(r, parameter)), 0),
        type: Number(table.get(r, type)),
      });
    }
    this.routes = routes;
    this.catalogVersion = version;
    return true;
  }

  /**
   * Routes by `leaders` (partition -> leader host id, from @SystemCatalog
   * PARTITIONS) from now on if `version` is newer than the topology routed
   * by and names the same partitions (a failover moved leaders; the bucket
   * table stays). Returns true when they were taken.
   */
  followLeaders(leaders: readonly number[], version: number): boolean {
    if (version <= this.topologyVersion || leaders.length !== this.leaders.length) return false;
    this.leaders = [...leaders];
    this.topologyVersion = version;
    return true;
  }

  /** Sets the connections that are up (called whenever one comes or goes). */
  setConnections(up: Connection[]): void {
    this.connections = up;
    this.byHost = new Map(up.map((c) => [c.hostId, c]));
  }

  get hasConnections(): boolean {
    return this.connections.length > 0;
  }

  /** The partition of a call to `procedure` with `params`, or -1 when it is not routed. */
  partitionOf(procedure: string, params: readonly unknown[]): number {
    if (!this.hashKnown || this.partitionCount === 0 || procedure.charCodeAt(0) === 64 /* @ */) return -1;
    const route = this.routes.get(procedure.toLowerCase());
    if (route === undefined || !route.singlePartition || route.parameter >= params.length) return -1;
    const bucket = bucketOf(params[route.parameter], route.type);
    if (bucket < 0) return bucket === NULL_BUCKET ? 0 : -1;
    return this.buckets !== null ? this.buckets[bucket] : bucket % this.partitionCount;
  }

  /** The leader host of `partition`; -1 when unknown (or `partition` is -1). */
  leaderOf(partition: number): number {
    return partition >= 0 && partition < this.leaders.length ? this.leaders[partition] : -1;
  }

  /** The connection for a call to `partition` (-1: any); undefined when none is up. */
  connectionFor(partition: number): Connection | undefined {
    if (partition >= 0 && partition < this.leaders.length) {
      const leader = this.byHost.get(this.leaders[partition]);
      if (leader !== undefined && leader.up) return leader;
    }
    const n = this.connections.length;
    if (n === 0) return undefined;
    if (n === 1) return this.connections[0];
    this.next = (this.next + 1) % n;
    return this.connections[this.next];
  }

  view(): TopologyView {
    return {
      partitionCount: this.partitionCount,
      partitionLeaders: [...this.leaders],
      bucketTable: this.buckets !== null,
      hosts: this.hosts,
      catalogVersion: this.catalogVersion,
      topologyVersion: this.topologyVersion,
      procedures: this.routes.size,
      routing: this.hashKnown,
    };
  }
}

const NULL_BUCKET = -2;
const UNROUTABLE = -1;

// The bucket of `v` hashed as a value of column type `type`; NULL_BUCKET for
// NULL (partition 0), UNROUTABLE when the client cannot convert it exactly.
function bucketOf(v: unknown, type: number): number {
  if (v === null || v === undefined) return NULL_BUCKET;
  if ((type >= ValueType.TINYINT && type <= ValueType.BIGINT) || type === ValueType.TIMESTAMP) {
    if (typeof v === 'number') return Number.isSafeInteger(v) ? bucketOfInteger(v) : UNROUTABLE;
    if (typeof v === 'bigint') return v >= -(1n << 63n) && v < 1n << 63n ? bucketOfInteger(v) : UNROUTABLE;
    if (type === ValueType.TIMESTAMP && v instanceof Timestamp) return bucketOfInteger(v.micros);
    if (type === ValueType.TIMESTAMP && v instanceof Date && !Number.isNaN(v.getTime())) {
      return bucketOfInteger(BigInt(v.getTime()) * 1000n);
    }
    return UNROUTABLE;
  }
  if (type === ValueType.VARCHAR && typeof v === 'string') return bucketOfBytes(Buffer.from(v, 'utf8'));
  if (type === ValueType.VARBINARY && v instanceof Uint8Array) return bucketOfBytes(v);
  return UNROUTABLE;
}
