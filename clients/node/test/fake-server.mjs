// FakeServer: a scripted Partita server on loopback for tests: it speaks the
// framing and messages of proto/client.proto (the generated code of dist/),
// answers the login with a topology the test chooses, and hands every
// invocation to the test, which answers (or not) when it likes.
import * as net from 'node:net';
import { once } from 'node:events';
import { partita } from '../dist/esm/gen/proto.js';

const { ClientMessage, ServerMessage } = partita.client;

export function frame(message) {
  const body = ServerMessage.encode(message).finish();
  const f = Buffer.alloc(4 + body.length);
  f.writeUInt32BE(body.length, 0);
  f.set(body, 4);
  return f;
}

/** A table of the engine's result format: columns [[name, typeNumber]], rows of int/string values. */
export function table(columns, rows) {
  const parts = [];
  const u16 = (n) => { const b = Buffer.alloc(2); b.writeUInt16LE(n); return b; };
  const u32 = (n) => { const b = Buffer.alloc(4); b.writeUInt32LE(n); return b; };
  parts.push(u16(columns.length));
  for (const [name, type] of columns) parts.push(Buffer.from([type]), u16(Buffer.byteLength(name)), Buffer.from(name));
  parts.push(u32(rows.length));
  for (const row of rows) {
    const values = [Buffer.alloc((columns.length + 7) >> 3)];
    row.forEach((v, c) => {
      const type = columns[c][1];
      if (type === 8) values.push(u32(Buffer.byteLength(v)), Buffer.from(v));
      else if (type === 2) values.push(Buffer.from([v]));
      else if (type === 4) values.push(u32(v >>> 0));
      else if (type === 5) { const b = Buffer.alloc(8); b.writeBigInt64LE(BigInt(v)); values.push(b); }
      else throw new Error(`fake table: type ${type}`);
    });
    const body = Buffer.concat(values);
    parts.push(u32(body.length), body);
  }
  const t = Buffer.concat(parts);
  return Buffer.concat([u32(t.length), t]);
}

/** Waits until `predicate()` holds, checking every 5 ms; throws after `ms`. */
export async function until(predicate, ms = 5000) {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** FakeServers started by a test file, closed by closeAll() (its after hook). */
const started = [];
export async function startFake(login) {
  const s = await new FakeServer(login).listen();
  started.push(s);
  return s;
}
export async function closeAll() {
  for (const s of started.splice(0)) await s.close();
}

export const VOTE_ROUTES = [{ name: 'Vote', singlePartition: true, partitionParameter: 0, partitionType: 5 }];

export class FakeServer {
  /** login: fields of LoginResponse to send (status OK by default). */
  constructor(login = {}) {
    this.login = login;
    this.invocations = [];   // { socket, invocation }
    this.dataEvents = 0;
    this.sockets = new Set();
    this.onInvocation = () => {};
    this.server = net.createServer((socket) => this.accept(socket));
  }

  async listen(port = 0) {
    this.server.listen(port, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = this.server.address().port;
    return this;
  }

  get address() {
    return `127.0.0.1:${this.port}`;
  }

  accept(socket) {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => {});
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      this.dataEvents++;
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32BE(0)) {
        const body = buf.subarray(4, 4 + buf.readUInt32BE(0));
        buf = buf.subarray(4 + body.length);
        const m = ClientMessage.decode(body);
        if (m.login) {
          socket.write(frame({ login: { status: 1, protocolVersion: 1, maxFrameBytes: 1 << 20, catalogVersion: 1,
            hash: { algorithm: 'fnv1a64-fmix64', bucketBits: 14 }, procedures: VOTE_ROUTES,
            topology: { partitionCount: 1, partitionLeaders: [0], hosts: [{ hostId: 0, address: '127.0.0.1', clientPort: this.port }] },
            ...this.login } }));
        } else {
          const entry = { socket, invocation: m.invocation };
          this.invocations.push(entry);
          this.onInvocation(entry);
        }
      }
    });
  }

  /** Answers `entry` with the given InvocationResponse fields (SUCCESS, one BIGINT 0, by default). */
  answer(entry, fields = {}) {
    entry.socket.write(frame({ response: { clientHandle: entry.invocation.clientHandle, status: 1, catalogVersion: 1,
      results: [table([['RESULT', 5]], [[0]])], ...fields } }));
  }

  /** Drops every connection (the server stays up and accepts new ones). */
  dropConnections() {
    for (const s of this.sockets) s.destroy();
  }

  async close() {
    this.dropConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
