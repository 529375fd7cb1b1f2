// Connection: one TCP connection to one server: login, calls in flight
// matched to answers by handle, one write per event-loop turn, a bounded
// number of calls in flight with a FIFO of calls waiting for a slot, and
// call timeouts swept on a timer.
//
// Writes: send() appends the call's frame to `out`; the first frame of a turn
// schedules flush() with process.nextTick, so every call made in the same
// turn (including in the promise callbacks of answers read in that turn)
// goes out in one socket write. While the socket's buffer is full (write()
// returned false) nothing more is written until 'drain'.
//
// Owned by the Client; it reports a lost connection through `onLost`.
// Thread model: JavaScript's single thread.

import * as net from 'node:net';
import * as tls from 'node:tls';
import { performance } from 'node:perf_hooks';
import { partita } from './gen/proto.js';
import {
  BackpressureError, CallTimeoutError, ConnectionError, ConnectionLostError, LoginRefusedError, ProcedureError,
  ProtocolError,
} from './errors.js';
import { errorCodeOf } from './error-codes.js';
import { FrameReader } from './frame-reader.js';
import { PendingCall } from './pending-call.js';
import { Response } from './response.js';
import { decodeResponse } from './response-decoder.js';
import { SCRAM_MECHANISM, ScramClient } from './scram.js';

const { ClientMessage, ServerMessage } = partita.client;
type LoginResponse = partita.client.ILoginResponse;

const PROTOCOL_VERSION = 1;
const LOGIN_STATUS_OK = 1;
const LOGIN_STATUS_CONTINUE = 6;
const LOGIN_STATUS_NAMES = ['LOGIN_STATUS_UNSPECIFIED', 'LOGIN_STATUS_OK', 'LOGIN_STATUS_BAD_VERSION', 'LOGIN_STATUS_SHUTTING_DOWN',
  'LOGIN_STATUS_AUTHENTICATION_REQUIRED', 'LOGIN_STATUS_AUTHENTICATION_FAILED', 'LOGIN_STATUS_CONTINUE'];
const SWEEP_INTERVAL_MS = 10;

/** A protobufjs 64-bit value: a number, or a Long-like object. */
export function toNumber(v: number | { toNumber(): number } | null | undefined): number {
  if (v == null) return 0;
  return typeof v === 'number' ? v : v.toNumber();
}

export interface ConnectionSettings {
  clientName: string;
  /** SCRAM-SHA-256 credentials (docs/security.md), or undefined to log in without. */
  user?: string;
  password?: string;
  /** TLS options (node:tls: ca, cert, key...), or undefined for plain TCP. */
  tls?: tls.ConnectionOptions;
  connectTimeoutMs: number;
  maxInFlight: number;
  backpressureTimeoutMs: number;
  maxResponseFrameBytes: number;
}

export interface ConnectionHooks {
  /** The connection dropped (not by close()); every call on it has been failed. */
  onLost(connection: Connection, reason: string): void;
  /** An answer arrived on `connection` carrying these versions (before its promise settles). */
  onVersions(catalogVersion: number, topologyVersion: number, connection: Connection): void;
  /**
   * `call` was answered NOT_LEADER (not run) by a host knowing topology
   * `topologyVersion`; returns true when the client takes the call back to
   * send it again (resend.ts), false to let its caller see the answer.
   */
  onNotLeader(call: PendingCall, errorCode: number, topologyVersion: number, connection: Connection): boolean;
}

export class Connection {
  /** host:port as given. */
  readonly server: string;
  readonly login: LoginResponse;
  /** The id of the host this connection reached (topology.hosts). */
  readonly hostId: number;
  /** The largest frame the server accepts (0: no limit announced). */
  readonly maxFrameBytes: number;
  /** Answers that matched no call in flight (most often those of timed-out calls). */
  lateResponses = 0;

  private readonly socket: net.Socket;
  private readonly settings: ConnectionSettings;
  private readonly hooks: ConnectionHooks;
  private readonly inFlight = new Map<number, PendingCall>();
  private readonly waiting: PendingCall[] = [];
  private waitingHead = 0;
  private out: Uint8Array[] = [];  // encoded ClientMessages, without their length prefix
  private outBytes = 0;
  private flushScheduled = false;
  private blocked = false;  // the socket's buffer is full: wait for 'drain'
  private sweeper: NodeJS.Timeout | undefined;
  private minTimeoutMs = Infinity;
  private closedReason: string | undefined;
  private readonly flushBound = () => this.flush();

  private constructor(server: string, socket: net.Socket, login: LoginResponse, reader: FrameReader,
    settings: ConnectionSettings, hooks: ConnectionHooks) {
    this.server = server;
    this.socket = socket;
    this.login = login;
    this.hostId = login.hostId ?? 0;
    this.maxFrameBytes = login.maxFrameBytes ?? 0;
    this.settings = settings;
    this.hooks = hooks;
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk, (frame) => this.onFrame(frame));
      } catch (e) {
        this.lose(`sent a malformed frame: ${(e as Error).message}`);
      }
    });
    socket.on('drain', () => {
      this.blocked = false;
      if (this.outBytes > 0) this.flush();
    });
    socket.on('error', (e) => this.lose(`failed: ${e.message}`));
    socket.on('close', () => this.lose('was closed by the server'));
  }

  /**
   * Opens a connection to host:port and logs in. Resolves once the server
   * accepted the login; rejects with ConnectionError (unreachable, no answer
   * within connectTimeoutMs) or LoginRefusedError.
   */
  static open(server: string, host: string, port: number, settings: ConnectionSettings,
    hooks: ConnectionHooks): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const reader = new FrameReader(settings.maxResponseFrameBytes);
      const socket = settings.tls
        ? tls.connect({ ...settings.tls, host, port, servername: net.isIP(host) ? undefined : host })
        : net.connect({ host, port, noDelay: true });
      socket.setNoDelay(true);
      const scram = settings.user !== undefined ? new ScramClient(settings.user, settings.password ?? '') : undefined;
      let continued = false;
      let done = false;
      const send = (message: partita.client.IClientMessage) => {
        const body = ClientMessage.encode(message).finish();
        const frame = Buffer.allocUnsafe(4 + body.length);
        frame.writeUInt32BE(body.length, 0);
        frame.set(body, 4);
        socket.write(frame);
      };
      const finish = (error: Error | undefined, connection?: Connection) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        socket.removeListener('data', onData);
        socket.removeListener('error', onError);
        socket.removeListener('close', onClose);
        if (error) {
          socket.destroy();
          reject(error);
        } else {
          resolve(connection!);
        }
      };
      const timer = setTimeout(() => finish(new ConnectionError(server,
        `cannot connect to ${server}: no login answer within ${settings.connectTimeoutMs} ms`)), settings.connectTimeoutMs);
      const onError = (e: Error) => finish(new ConnectionError(server, `cannot connect to ${server}: ${e.message}`, { cause: e }));
      const onClose = () => finish(new ConnectionError(server, `cannot connect to ${server}: the server closed the connection during login`));
      const onData = (chunk: Buffer) => {
        try {
          reader.push(chunk, (frame) => {
            if (done) throw new ProtocolError('a frame after the login answer arrived with it');
            const message = ServerMessage.decode(frame);
            const login = message.login;
            if (!login) throw new ProtocolError('the first frame from the server is not a login answer');
            if (login.status === LOGIN_STATUS_CONTINUE && scram && !continued) {
              continued = true;
              let clientFinal: string;
              try {
                clientFinal = scram.clientFinal(Buffer.from(login.saslData ?? []).toString('utf8'));
              } catch (e) {
                finish(new LoginRefusedError(server, 'LOGIN_STATUS_CONTINUE', `${server}: ${(e as Error).message}`));
                return;
              }
              send({ loginContinue: { saslData: Buffer.from(clientFinal, 'utf8') } });
              return;
            }
            if (login.status === LOGIN_STATUS_OK && continued
                && !scram!.verifyServerFinal(Buffer.from(login.saslData ?? []).toString('utf8'))) {
              finish(new LoginRefusedError(server, 'LOGIN_STATUS_OK', `${server} did not prove it knows the user's keys`
                + ' (wrong SCRAM server signature); not trusting it'));
              return;
            }
            if (login.status !== LOGIN_STATUS_OK) {
              const status = LOGIN_STATUS_NAMES[login.status ?? 0] ?? `LOGIN_STATUS_${login.status}`;
              finish(new LoginRefusedError(server, status, `${server} refused the login: ${status}: ${login.message}`));
              return;
            }
            socket.pause();
            const connection = new Connection(server, socket, login, reader, settings, hooks);
            finish(undefined, connection);
            socket.resume();
          });
        } catch (e) {
          finish(new ConnectionError(server, `cannot connect to ${server}: ${(e as Error).message}`, { cause: e }));
        }
      };
      socket.on('data', onData);
      socket.on('error', onError);
      socket.on('close', onClose);
      socket.on(settings.tls ? 'secureConnect' : 'connect', () => {
        send({ login: { protocolVersion: PROTOCOL_VERSION, clientName: settings.clientName,
          ...(scram ? { saslMechanism: SCRAM_MECHANISM, saslData: Buffer.from(scram.clientFirst(), 'utf8') } : {}) } });
      });
    });
  }

  /** True until the connection is lost or closed. */
  get up(): boolean {
    return this.closedReason === undefined;
  }

  /** Calls sent and not yet answered, plus those waiting for a slot. */
  get outstanding(): number {
    return this.inFlight.size + this.waiting.length - this.waitingHead;
  }

  /**
   * Sends `call` now if a slot is free, else queues it for one (failing it
   * with BackpressureError after backpressureTimeoutMs).
   */
  submit(call: PendingCall): void {
    if (!this.up) {
      call.reject(new ConnectionLostError(this.server, call.procedure, this.closedReason!));
      return;
    }
    this.minTimeoutMs = Math.min(this.minTimeoutMs, call.timeoutMs);
    if (this.inFlight.size < this.settings.maxInFlight && this.waitingHead === this.waiting.length) {
      this.send(call);
    } else {
      call.queuedAt = performance.now();
      this.waiting.push(call);
    }
    this.startSweeper();
  }

  /** Closes the connection; calls in flight or waiting fail with ConnectionLostError. */
  close(reason = 'was closed by the client'): void {
    if (!this.up) return;
    this.closedReason = reason;
    this.stopSweeper();
    if (this.outBytes > 0 && !this.blocked) this.flush();
    this.socket.end();
    this.socket.destroy();
    this.failAll(reason);
  }

  private send(call: PendingCall): void {
    call.startedAt = performance.now();
    this.inFlight.set(call.handle, call);
    this.out.push(call.frame);
    this.outBytes += call.frame.length;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      process.nextTick(this.flushBound);
    }
  }

  // Writes every frame queued since the last flush in one write.
  private flush(): void {
    this.flushScheduled = false;
    if (this.blocked || this.outBytes === 0 || !this.up) return;
    const frames = this.out;
    const batch = Buffer.allocUnsafe(this.outBytes + 4 * frames.length);
    let p = 0;
    for (let i = 0; i < frames.length; i++) {
      const f = frames[i];
      batch.writeUInt32BE(f.length, p);
      batch.set(f, p + 4);
      p += 4 + f.length;
    }
    this.out = [];
    this.outBytes = 0;
    if (!this.socket.write(batch)) this.blocked = true;
  }

  private onFrame(frame: Buffer): void {
    const r = decodeResponse(frame);
    if (r === undefined) throw new ProtocolError('a frame that is not a call\'s answer');
    const handle = r.clientHandle;
    const call = this.inFlight.get(handle);
    this.hooks.onVersions(r.catalogVersion, r.topologyVersion, this);
    if (call === undefined) {
      this.lateResponses++;
      return;
    }
    this.inFlight.delete(handle);
    if (r.status !== 1 && this.hooks.onNotLeader(call, r.errorCode || errorCodeOf(r.errorName), r.topologyVersion, this)) {
      this.admitWaiting();
      return;
    }
    const response = new Response(r, r.serverNanos, r.catalogVersion);
    if (!response.ok && call.throwOnFailure) {
      call.reject(new ProcedureError(call.procedure, response));
    } else {
      call.resolve(response);
    }
    this.admitWaiting();
  }

  // Sends waiting calls while slots are free.
  private admitWaiting(): void {
    while (this.waitingHead < this.waiting.length && this.inFlight.size < this.settings.maxInFlight) {
      const call = this.waiting[this.waitingHead];
      this.waiting[this.waitingHead++] = undefined as unknown as PendingCall;
      this.send(call);
    }
    if (this.waitingHead === this.waiting.length) {
      this.waiting.length = 0;
      this.waitingHead = 0;
    } else if (this.waitingHead > 1024 && this.waitingHead * 2 > this.waiting.length) {
      this.waiting.splice(0, this.waitingHead);
      this.waitingHead = 0;
    }
  }

  private startSweeper(): void {
    if (this.sweeper !== undefined) return;
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  private stopSweeper(): void {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  // Fails calls past their timeout and waiting calls past the backpressure timeout.
  private sweep(): void {
    const now = performance.now();
    // In-flight calls are in the order they were sent; once a call started
    // less than the smallest timeout ago, no later call can have expired.
    for (const call of this.inFlight.values()) {
      if (call.startedAt + this.minTimeoutMs > now) break;
      if (now - call.startedAt >= call.timeoutMs) {
        this.inFlight.delete(call.handle);
        call.reject(new CallTimeoutError(call.procedure, call.timeoutMs));
      }
    }
    const limit = this.settings.backpressureTimeoutMs;
    while (this.waitingHead < this.waiting.length && now - this.waiting[this.waitingHead].queuedAt >= limit) {
      const call = this.waiting[this.waitingHead];
      this.waiting[this.waitingHead++] = undefined as unknown as PendingCall;
      call.reject(new BackpressureError(call.procedure, this.settings.maxInFlight, Math.round(now - call.queuedAt)));
    }
    this.admitWaiting();
    if (this.inFlight.size === 0 && this.waiting.length === 0) this.stopSweeper();
  }

  private lose(reason: string): void {
    if (!this.up) return;
    this.closedReason = reason;
    this.stopSweeper();
    this.socket.destroy();
    this.failAll(reason);
    this.hooks.onLost(this, reason);
  }

  private failAll(reason: string): void {
    const calls = [...this.inFlight.values(), ...this.waiting.slice(this.waitingHead)];
    this.inFlight.clear();
    this.waiting.length = 0;
    this.waitingHead = 0;
    this.out = [];
    this.outBytes = 0;
    for (const call of calls) call.reject(new ConnectionLostError(this.server, call.procedure, reason));
  }
}

