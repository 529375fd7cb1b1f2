// Decodes the frames answering calls (ServerMessage{response:
// InvocationResponse}, proto/client.proto) straight into the fields a
// Response needs: no intermediate protobuf message, no Long per 64-bit
// field, result tables as views of the frame. It reads protobuf's wire
// format as the generated decoder would: fields in any order, the last
// value of a repeated scalar wins, unknown fields skipped, a malformed
// frame is a ProtocolError naming the offset.
// Thread model: JavaScript's single thread; stateless.

import { ProtocolError } from './errors.js';
import type { InvocationResponseFields } from './response.js';

/** An answer as read off the wire: the Response's fields, the handle, and the versions. */
export interface DecodedResponse extends InvocationResponseFields {
  clientHandle: number;
  serverNanos: number;
  catalogVersion: number;
  topologyVersion: number;
}

const SERVER_MESSAGE_RESPONSE = 2;
const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;

class Reader {
  pos: number;

  constructor(readonly buf: Uint8Array, start: number, readonly end: number) {
    this.pos = start;
  }

  fail(what: string): never {
    throw new ProtocolError(`malformed response frame at byte ${this.pos}: ${what}`);
  }

  // A varint as a number: exact up to 2^53, approximate beyond (handles,
  // versions and nanoseconds stay far below).
  varint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) this.fail('truncated varint');
      const b = this.buf[this.pos++];
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 128;
    }
    return this.fail('varint longer than 10 bytes');
  }

  // The low 32 bits of a varint, as int32 (enums and sint32 before unzigzag).
  varint32(): number {
    const v = this.varint();
    return v % 0x100000000 | 0;
  }

  // Start of a length-delimited value; moves past it.
  delimited(): [number, number] {
    const length = this.varint();
    const start = this.pos;
    if (length > this.end - start) this.fail(`a field of ${length} bytes runs past the end`);
    this.pos = start + length;
    return [start, this.pos];
  }

  skip(wireType: number): void {
    switch (wireType) {
      case VARINT: this.varint(); return;
      case FIXED64: this.advance(8); return;
      case LENGTH_DELIMITED: this.delimited(); return;
      case FIXED32: this.advance(4); return;
      default: this.fail(`unsupported wire type ${wireType}`);
    }
  }

  private advance(n: number): void {
    if (this.end - this.pos < n) this.fail('truncated fixed-width field');
    this.pos += n;
  }
}

const utf8 = new TextDecoder('utf-8');

/**
 * Decodes one frame (without its length prefix). Returns undefined for a
 * ServerMessage that is not a response (a login answer); throws
 * ProtocolError for bytes that are not a ServerMessage.
 */
export function decodeResponse(frame: Uint8Array): DecodedResponse | undefined {
  const outer = new Reader(frame, 0, frame.length);
  let body: [number, number] | undefined;
  while (outer.pos < outer.end) {
    const key = outer.varint();
    if (key >>> 3 === SERVER_MESSAGE_RESPONSE && (key & 7) === LENGTH_DELIMITED) {
      body = outer.delimited();
    } else {
      if (key >>> 3 === 0) outer.fail('field number 0');
      outer.skip(key & 7);
    }
  }
  return body === undefined ? undefined : decodeInvocationResponse(frame, body[0], body[1]);
}

function decodeInvocationResponse(frame: Uint8Array, start: number, end: number): DecodedResponse {
  const r = new Reader(frame, start, end);
  const m: DecodedResponse = {
    clientHandle: 0, status: 0, errorName: '', message: '', appStatus: 0, appStatusMessage: '', results: [],
    errorCode: 0, serverNanos: 0, catalogVersion: 0, topologyVersion: 0,
  };
  while (r.pos < r.end) {
    const key = r.varint();
    const field = key >>> 3;
    const wireType = key & 7;
    if (field === 0) r.fail('field number 0');
    const expected = field === 3 || field === 4 || field === 6 || field === 7 ? LENGTH_DELIMITED : VARINT;
    if (field > 11 || wireType !== expected) {
      r.skip(wireType);
      continue;
    }
    switch (field) {
      case 1: m.clientHandle = r.varint(); break;
      case 2: m.status = r.varint32(); break;
      case 3: m.errorName = text(r); break;
      case 4: m.message = text(r); break;
      case 5: { const z = r.varint32(); m.appStatus = (z >>> 1) ^ -(z & 1); break; }
      case 6: m.appStatusMessage = text(r); break;
      case 7: { const [s, e] = r.delimited(); m.results.push(frame.subarray(s, e)); break; }
      case 8: m.serverNanos = r.varint(); break;
      case 9: m.catalogVersion = r.varint(); break;
      case 10: m.errorCode = r.varint() % 0x100000000; break;
      case 11: m.topologyVersion = r.varint(); break;
    }
  }
  return m;
}

function text(r: Reader): string {
  const [s, e] = r.delimited();
  return s === e ? '' : utf8.decode(r.buf.subarray(s, e));
}
