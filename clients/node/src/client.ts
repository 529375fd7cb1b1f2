// Client: the public face of @partita/client. Connects to one or more
// servers (one Connection each) and, by default, to every other host of
// their cluster that a login lists; routes each call to the leader of its
// partition (Router), settles every call's promise exactly once, refreshes
// routes when the catalog changes, follows the new leaders when a failover
// changes the topology, sends a NOT_LEADER call again (resend.ts), and
// reopens dropped connections with exponential backoff and jitter.
//
//   const client = await connect({ servers: ['127.0.0.1:21212'] });
//   const r = await client.call('Vote', [6175551234n, 3, 2n]);
//   const { rows } = await client.query('SELECT COUNT(*) AS n FROM votes WHERE state = ?', ['CA']);
//   await client.close();
//
// Events (EventEmitter): 'connectionLost' {server, reason}, 'reconnecting'
// {server, attempt, delayMs}, 'reconnected' {server}, 'reconnectFailed'
// {server, attempt, error}, 'hostDiscovered' {server, hostId},
// 'hostUnreachable' {server, hostId, error} (a host of the topology the
// client could not connect to; it is left). No 'error' event is ever emitted.
// Thread model: JavaScript's single thread.

import { EventEmitter } from 'node:events';
import type { ConnectionOptions } from 'node:tls';
import protobuf from 'protobufjs/minimal.js';
import { Connection, type ConnectionHooks, type ConnectionSettings } from './connection.js';
import {
  ConnectionError, FrameTooLargeError, NoConnectionsError, PartitaError,
} from './errors.js';
import { partita } from './gen/proto.js';
import { PendingCall } from './pending-call.js';
import { behindHostWaitMs, resendAfter } from './resend.js';
import type { Response } from './response.js';
import type { ResultTable } from './result-table.js';
import { Router, type TopologyView } from './router.js';
import { toParameter, type ParamValue, type ParameterMessage } from './values.js';

const { ClientMessage } = partita.client;
const WRITER_KEEP_BYTES = 1 << 20;

export const DEFAULT_PORT = 21212;

export interface ClientOptions {
  /** Servers as 'host', 'host:port' or '[::1]:port' (default port 21212). */
  servers: string | readonly string[];
  /** Sent at login; the server shows it in its logs and connection statistics. Default 'partita-node'. */
  clientName?: string;
  /** Log in as this user with SCRAM-SHA-256 (a server started with --users; docs/security.md). */
  user?: string;
  /** The user's password; never sent (SCRAM proves it). */
  password?: string;
  /**
   * Speak TLS (a server started with --tls-*): node:tls options such as
   * { ca: readFileSync('server.pem') }. The server's certificate and host
   * name are verified unless the options say otherwise.
   */
  tls?: ConnectionOptions;
  /** TCP connect plus login answer, for connect() and each reconnection. Default 10,000 ms. */
  connectTimeoutMs?: number;
  /** Timeout of calls made without their own. Default 120,000 ms. */
  callTimeoutMs?: number;
  /** Calls in flight per connection before new calls wait for a slot. Default 4,096. */
  maxInFlight?: number;
  /** How long a call waits for a slot before failing with BackpressureError. Default 10,000 ms. */
  backpressureTimeoutMs?: number;
  /**
   * After each login, connect in the background to every host of the
   * cluster the login lists that the client has no connection to (by host
   * id and address), so one address of a cluster is enough; a host that
   * cannot be reached emits 'hostUnreachable' and is left. Default true;
   * false keeps the client to the servers given.
   */
  discoverHosts?: boolean;
  /** Reopen dropped connections in the background. Default true. */
  reconnect?: boolean;
  /** First and longest wait between reconnection attempts (doubling, with jitter). Default 100 and 5,000 ms. */
  reconnectInitialMs?: number;
  reconnectMaxMs?: number;
  /** Largest answer frame accepted; a larger one closes the connection. Default 256 MiB. */
  maxResponseFrameBytes?: number;
}

export interface CallOptions {
  /** This call's timeout (client side), also sent as the server's time limit for it. */
  timeoutMs?: number;
  /** Reject with ProcedureError on a status other than SUCCESS (default true); false resolves with every answer. */
  throwOnFailure?: boolean;
}

interface Server {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  connection: Connection | undefined;
  attempt: number;
  timer: NodeJS.Timeout | undefined;
  /** The host id its last login named; undefined before its first login. */
  hostId: number | undefined;
  /** A reconnection under way (dial and login); settles when it ends, whatever its outcome. */
  reopening: Promise<void> | undefined;
}

function serverName(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Parses 'host', 'host:port', '[v6]' or '[v6]:port'; throws TypeError naming what is wrong. */
export function parseServer(text: string): { host: string; port: number } {
  if (typeof text !== 'string' || text.trim() === '') throw new TypeError(`server address '${text}' is empty`);
  const s = text.trim();
  let host = s;
  let portText: string | undefined;
  if (s.startsWith('[')) {
    const close = s.indexOf(']');
    if (close < 0) throw new TypeError(`server address '${s}': '[' without ']'`);
    host = s.slice(1, close);
    const rest = s.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) throw new TypeError(`server address '${s}': expected ':port' after ']'`);
    portText = rest === '' ? undefined : rest.slice(1);
  } else if (s.indexOf(':') !== s.lastIndexOf(':')) {
    throw new TypeError(`server address '${s}': write an IPv6 address in brackets, [::1]:21212`);
  } else if (s.includes(':')) {
    [host, portText] = s.split(':');
  }
  if (host === '') throw new TypeError(`server address '${s}' has no host`);
  if (portText === undefined) return { host, port: DEFAULT_PORT };
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65535) {
    throw new TypeError(`server address '${s}': port '${portText}' is not a number from 1 to 65535`);
  }
  return { host, port };
}

function positive(name: string, v: number | undefined, fallback: number, allowZero = false): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (!allowZero && v === 0)) {
    throw new TypeError(`option ${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got ${String(v)}`);
  }
  return v;
}

export class Client extends EventEmitter {
  private readonly servers: Server[];
  private readonly settings: ConnectionSettings;
  private readonly callTimeoutMs: number;
  private readonly reconnect: boolean;
  private readonly discoverHosts: boolean;
  private readonly reconnectInitialMs: number;
  private readonly reconnectMaxMs: number;
  private readonly router = new Router();
  private readonly hooks: ConnectionHooks;
  private handles = 0;
  private writer = protobuf.Writer.create();
  private outstanding = 0;
  private drainWaiters: (() => void)[] = [];
  private refreshingVersion = 0;
  // The newest topology version asked for, and the read of it (settles either way).
  private topologyAsked = 0;
  private topologyFollowed: Promise<void> = Promise.resolve();
  private notLeaderResends = 0;
  private closed = false;
  private readonly settled = () => {
    if (--this.outstanding === 0 && this.drainWaiters.length > 0) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) w();
    }
  };

  /** Use connect() (or Client.connect()): a client is usable once its servers answered the login. */
  constructor(options: ClientOptions) {
    super();
    const list = typeof options.servers === 'string' ? options.servers.split(',') : [...(options.servers ?? [])];
    if (list.length === 0) throw new TypeError('option servers needs at least one host[:port]');
    this.servers = list.map((s) => {
      const { host, port } = parseServer(s);
      return { name: serverName(host, port), host, port, connection: undefined, attempt: 0, timer: undefined,
        hostId: undefined, reopening: undefined };
    });
    this.settings = {
      clientName: options.clientName ?? 'partita-node',
      ...(options.user !== undefined ? { user: options.user, password: options.password ?? '' } : {}),
      ...(options.tls !== undefined ? { tls: options.tls } : {}),
      connectTimeoutMs: positive('connectTimeoutMs', options.connectTimeoutMs, 10_000),
      maxInFlight: Math.floor(positive('maxInFlight', options.maxInFlight, 4096)),
      backpressureTimeoutMs: positive('backpressureTimeoutMs', options.backpressureTimeoutMs, 10_000, true),
      maxResponseFrameBytes: positive('maxResponseFrameBytes', options.maxResponseFrameBytes, 256 * 1024 * 1024),
    };
    this.callTimeoutMs = positive('callTimeoutMs', options.callTimeoutMs, 120_000);
    this.reconnect = options.reconnect ?? true;
    this.discoverHosts = options.discoverHosts ?? true;
    this.reconnectInitialMs = positive('reconnectInitialMs', options.reconnectInitialMs, 100);
    this.reconnectMaxMs = Math.max(this.reconnectInitialMs, positive('reconnectMaxMs', options.reconnectMaxMs, 5_000));
    this.hooks = {
      onLost: (c, reason) => this.onLost(c, reason),
      onVersions: (catalogVersion, topologyVersion, connection) => {
        this.onCatalogVersion(catalogVersion);
        if (topologyVersion > this.router.topologyVersion) void this.followTopology(topologyVersion, connection);
      },
      onNotLeader: (call, errorCode, topologyVersion, connection) =>
        this.onNotLeader(call, errorCode, topologyVersion, connection),
    };
  }

  /** Creates a client and connects it to every server; rejects (closing what opened) if any cannot be reached. */
  static async connect(options: ClientOptions | string | readonly string[]): Promise<Client> {
    const client = new Client(typeof options === 'string' || Array.isArray(options)
      ? { servers: options as string | string[] } : options as ClientOptions);
    try {
      await Promise.all(client.servers.map((s) => client.open(s)));
    } catch (e) {
      await client.close();
      throw e;
    }
    return client;
  }

  /**
   * Calls `procedure` with `params`. Resolves with the answer on SUCCESS (or
   * on any answer with throwOnFailure: false); rejects with ProcedureError
   * for another status, or with CallTimeoutError, ConnectionLostError,
   * BackpressureError, NoConnectionsError, FrameTooLargeError, or a
   * TypeError/RangeError for a parameter JavaScript cannot send.
   */
  call(procedure: string, params: readonly ParamValue[] = [], options?: CallOptions): Promise<Response> {
    if (this.closed) return Promise.reject(new PartitaError(`call to ${procedure} not sent: the client is closed`));
    if (typeof procedure !== 'string' || procedure === '') {
      return Promise.reject(new TypeError(`procedure must be a non-empty string, got ${String(procedure)}`));
    }
    if (!Array.isArray(params)) {
      return Promise.reject(new TypeError(`${procedure}: params must be an array, got ${typeof params}`));
    }
    const parameters: ParameterMessage[] = new Array(params.length);
    try {
      for (let i = 0; i < params.length; i++) parameters[i] = toParameter(params[i], i, procedure);
    } catch (e) {
      return Promise.reject(e);
    }
    const partition = this.router.partitionOf(procedure, params);
    const connection = this.router.connectionFor(partition);
    if (connection === undefined) return Promise.reject(new NoConnectionsError(procedure));
    const timeoutMs = options?.timeoutMs !== undefined ? positive('timeoutMs', options.timeoutMs, 0) : this.callTimeoutMs;
    const handle = ++this.handles;
    const frame = this.encode({
      invocation: {
        clientHandle: handle, procedure, parameters: parameters as partita.client.IParameter[],
        routedPartitionPlusOne: partition + 1,
        timeoutMillis: options?.timeoutMs !== undefined ? Math.min(Math.ceil(timeoutMs), 0xffffffff) : 0,
      },
    });
    if (connection.maxFrameBytes > 0 && frame.length > connection.maxFrameBytes) {
      return Promise.reject(new FrameTooLargeError(procedure, frame.length, connection.maxFrameBytes));
    }
    const throwOnFailure = options?.throwOnFailure ?? true;
    this.outstanding++;
    return new Promise<Response>((resolve, reject) => {
      connection.submit(new PendingCall(handle, procedure, frame, timeoutMs, throwOnFailure, partition,
        (r) => { this.settled(); resolve(r); },
        (e) => { this.settled(); reject(e); }));
    });
  }

  /** Runs one SQL statement through @AdHoc with `?` parameters; resolves like call(). */
  query(sql: string, params: readonly ParamValue[] = [], options?: CallOptions): Promise<Response> {
    if (typeof sql !== 'string') return Promise.reject(new TypeError(`query: sql must be a string, got ${typeof sql}`));
    if (!Array.isArray(params)) return Promise.reject(new TypeError(`query: params must be an array, got ${typeof params}`));
    return this.call('@AdHoc', [sql, ...params], options);
  }

  /** Resolves when no call of this client is outstanding (every promise settled). */
  drain(): Promise<void> {
    if (this.outstanding === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Closes every connection (outstanding calls fail with ConnectionLostError) and stops reconnecting. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.servers) {
      if (s.timer !== undefined) clearTimeout(s.timer);
      s.timer = undefined;
      const c = s.connection;
      s.connection = undefined;
      c?.close();
    }
    this.router.setConnections([]);
  }

  // Encodes `message` with the client's one writer (protobufjs writers grow a
  // buffer and can be reused), returning a copy of exactly its bytes.
  private encode(message: partita.client.IClientMessage): Uint8Array {
    const writer = this.writer;
    writer.pos = 0;
    try {
      return ClientMessage.encode(message, writer).finish();
    } finally {
      // A fresh writer after a failure (forks may be left open) or a huge call (do not keep its buffer).
      if (writer.states?.length || writer.buf.length > WRITER_KEEP_BYTES) this.writer = protobuf.Writer.create();
    }
  }

  /** Calls sent or waiting for a slot, not yet settled. */
  get inFlight(): number {
    return this.outstanding;
  }

  /** Calls sent again after a NOT_LEADER answer since the client started. */
  get resends(): number {
    return this.notLeaderResends;
  }

  /** The servers whose connection is up now (given and discovered). */
  get connectedServers(): string[] {
    return this.servers.filter((s) => s.connection?.up).map((s) => s.name);
  }

  /** What the client knows of the cluster: partitions, leaders, hosts, catalog version, routes. */
  get topology(): TopologyView {
    return this.router.view();
  }

  private async open(server: Server): Promise<void> {
    const connection = await Connection.open(server.name, server.host, server.port, this.settings, this.hooks);
    if (this.closed) {
      connection.close();
      return;
    }
    server.connection = connection;
    server.hostId = connection.hostId;
    server.attempt = 0;
    this.router.loggedIn(connection.login);
    this.publish();
    if (this.discoverHosts) this.discover(connection.login);
  }

  // Connects in the background to each host `login` lists that the client
  // has no connection to (by host id) nor server for (by address).
  private discover(login: partita.client.ILoginResponse): void {
    for (const h of login.topology?.hosts ?? []) {
      const hostId = h.hostId ?? 0;
      if (!h.address || !h.clientPort || this.closed) continue;
      const name = serverName(h.address, h.clientPort);
      if (this.servers.some((s) => s.name === name || s.connection?.hostId === hostId)) continue;
      const server: Server = { name, host: h.address, port: h.clientPort, connection: undefined, attempt: 0,
        timer: undefined, hostId, reopening: undefined };
      this.servers.push(server);
      this.open(server).then(
        () => this.emit('hostDiscovered', { server: name, hostId }),
        (error: Error) => {
          // Left: a later login that lists it tries again.
          const i = this.servers.indexOf(server);
          if (i >= 0 && server.connection === undefined) this.servers.splice(i, 1);
          this.emit('hostUnreachable', { server: name, hostId, error });
        });
    }
  }

  private publish(): void {
    this.router.setConnections(this.servers.flatMap((s) => (s.connection?.up ? [s.connection] : [])));
  }

  private onLost(connection: Connection, reason: string): void {
    const server = this.servers.find((s) => s.connection === connection);
    if (server === undefined) return;
    server.connection = undefined;
    this.publish();
    this.emit('connectionLost', { server: server.name, reason });
    if (this.reconnect && !this.closed) this.scheduleReconnect(server);
  }

  private scheduleReconnect(server: Server): void {
    const base = Math.min(this.reconnectMaxMs, this.reconnectInitialMs * 2 ** Math.min(server.attempt, 30));
    const delayMs = Math.round(base * (0.8 + 0.4 * Math.random()));
    server.attempt++;
    this.emit('reconnecting', { server: server.name, attempt: server.attempt, delayMs });
    server.timer = setTimeout(() => {
      server.timer = undefined;
      this.reopen(server);
    }, delayMs);
  }

  // Dials `server` again now; a failure schedules the next attempt, its backoff doubled.
  private reopen(server: Server): void {
    if (this.closed) return;
    const reopening = this.open(server).then(
      () => {
        this.emit('reconnected', { server: server.name });
      },
      (error: ConnectionError) => {
        this.emit('reconnectFailed', { server: server.name, attempt: server.attempt, error });
        if (!this.closed) this.scheduleReconnect(server);
      });
    server.reopening = reopening;
    void reopening.finally(() => {
      if (server.reopening === reopening) server.reopening = undefined;
    });
  }

  // A newer topology names these leaders: a leader's connection that is down
  // and waiting out its reconnection backoff (a host that came back and was
  // handed its partitions again, docs/cluster.md, "Leader rebalancing") is
  // dialled now instead.
  private dialLeaders(leaders: readonly number[]): void {
    for (const server of this.servers) {
      if (server.timer === undefined || server.hostId === undefined || !leaders.includes(server.hostId)) continue;
      clearTimeout(server.timer);
      server.timer = undefined;
      this.reopen(server);
    }
  }

  // The reconnection under way to `partition`'s leader, if its connection is down and being dialled.
  private leaderReopening(partition: number): Promise<void> | undefined {
    const leader = this.router.leaderOf(partition);
    return this.servers.find((s) => s.hostId === leader && s.connection === undefined)?.reopening;
  }

  // A call answered NOT_LEADER: sent again (resend.ts) once the newest
  // topology asked for was read, routed anew; else its caller sees the answer.
  private onNotLeader(call: PendingCall, errorCode: number, topologyVersion: number, from: Connection): boolean {
    if (this.closed || !call.resendable) return false;
    const wait = behindHostWaitMs(errorCode, call.partition, topologyVersion, this.router.topologyVersion,
      call.behindWaits);
    if (wait !== undefined) {
      // The host has not followed the topology this client routes by yet: it will, so the call goes to the leader
      // again after a short wait, not counted against the resends.
      call.behindWaits++;
      setTimeout(() => this.sendAgain(call), wait);
      return true;
    }
    if (!resendAfter(errorCode, call.resends)) return false;
    call.resends++;
    this.notLeaderResends++;
    void this.followTopology(topologyVersion, from).then(() => this.leaderReopening(call.partition))
      .then(() => this.sendAgain(call));
    return true;
  }

  // Sends a call answered NOT_LEADER again, to its partition's leader as the client routes now.
  private sendAgain(call: PendingCall): void {
    if (this.closed) {
      call.reject(new PartitaError(`call to ${call.procedure} not sent again after NOT_LEADER: the client is closed`));
      return;
    }
    const connection = this.router.connectionFor(call.partition);
    if (connection === undefined) call.reject(new NoConnectionsError(call.procedure));
    else connection.submit(call);
  }

  // An answer on `from` came from a host knowing a newer topology (a
  // failover moved leaders): read @SystemCatalog PARTITIONS from that host
  // once per version and route by its LEADER_HOST_ID. Resolves when the
  // latest read asked for ended; one that did not bring `version` lets the
  // next answer carrying it ask again.
  private followTopology(version: number, from: Connection): Promise<void> {
    if (version <= this.topologyAsked || this.closed) return this.topologyFollowed;
    const asked = this.topologyAsked;
    this.topologyAsked = version;
    const connection = from.up ? from : this.router.connectionFor(-1);
    if (connection === undefined) {
      this.topologyAsked = asked;
      return this.topologyFollowed;
    }
    const handle = ++this.handles;
    const frame = this.encode({
      invocation: { clientHandle: handle, procedure: '@SystemCatalog', parameters: [{ text: 'PARTITIONS' }] },
    });
    this.topologyFollowed = new Promise<void>((done) => {
      const read = new PendingCall(handle, '@SystemCatalog', frame, this.callTimeoutMs, true, -1,
        (r) => {
          try {
            if (r.tables.length > 0) this.followLeaders(r.tables[0]);
          } catch {
            // A malformed table: the old leaders stay.
          }
          if (this.router.topologyVersion < version && this.topologyAsked === version) this.topologyAsked = asked;
          done();
        },
        () => {
          if (this.topologyAsked === version) this.topologyAsked = asked;  // asked again on the next newer answer
          done();
        });
      read.resendable = false;
      connection.submit(read);
    });
    return this.topologyFollowed;
  }

  // Routes by a @SystemCatalog PARTITIONS table (PARTITION_ID, LEADER_HOST_ID, TOPOLOGY_VERSION).
  private followLeaders(table: ResultTable): void {
    const id = table.columnIndex('PARTITION_ID');
    const leader = table.columnIndex('LEADER_HOST_ID');
    const versionColumn = table.columnIndex('TOPOLOGY_VERSION');
    if (id < 0 || leader < 0 || versionColumn < 0) return;
    const leaders: number[] = new Array(table.rowCount).fill(-1);
    let version = 0;
    for (let r = 0; r < table.rowCount; r++) {
      const p = Number(table.get(r, id));
      if (!Number.isInteger(p) || p < 0 || p >= leaders.length) return;
      leaders[p] = Number(table.get(r, leader));
      version = Math.max(version, Number(table.get(r, versionColumn)));
    }
    if (leaders.includes(-1)) return;
    if (this.router.followLeaders(leaders, version)) this.dialLeaders(leaders);
  }

  // An answer ran against a newer catalog: read the new routes once per version.
  private onCatalogVersion(version: number): void {
    if (version <= this.router.catalogVersion || version <= this.refreshingVersion || this.closed) return;
    this.refreshingVersion = version;
    const connection = this.router.connectionFor(-1);
    if (connection === undefined) return;
    const handle = ++this.handles;
    const frame = this.encode({
      invocation: { clientHandle: handle, procedure: '@SystemCatalog', parameters: [{ text: 'PROCEDURES' }] },
    });
    const read = new PendingCall(handle, '@SystemCatalog', frame, this.callTimeoutMs, true, -1,
      (r) => {
        try {
          if (r.tables.length > 0) this.router.updateRoutes(Math.max(version, r.catalogVersion), r.tables[0]);
        } catch {
          // A malformed table: the old routes stay.
        }
      },
      () => { /* the old routes stay; calls still run (the server routes them) */ });
    read.resendable = false;
    connection.submit(read);
  }
}

/** Creates a Client and connects it: `await connect('127.0.0.1:21212')`. */
export function connect(options: ClientOptions | string | readonly string[]): Promise<Client> {
  return Client.connect(options);
}
