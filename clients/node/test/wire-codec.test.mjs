// The hand-written response decoder against the generated protobuf code:
// it reads what the generated encoder writes, field for field.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { partita } from '../dist/esm/gen/proto.js';
import { decodeResponse } from '../dist/esm/response-decoder.js';
import { ProtocolError } from '@partita/client';

const { ServerMessage } = partita.client;

function responseFrame(fields) {
  return Buffer.from(ServerMessage.encode({ response: fields }).finish());
}

test('a response decodes to what the generated encoder wrote', () => {
  const tables = [Buffer.from([1, 2, 3]), Buffer.alloc(0), Buffer.alloc(300, 9)];
  const r = decodeResponse(responseFrame({
    clientHandle: 2 ** 50 + 1, status: 4, errorName: 'BAD_PARAMETER', message: 'parameter 2 ✗', appStatus: -7,
    appStatusMessage: 'app', results: tables, serverNanos: 123456789, catalogVersion: 12, errorCode: 8,
    topologyVersion: 2 ** 33,
  }));
  assert.equal(r.clientHandle, 2 ** 50 + 1);
  assert.equal(r.status, 4);
  assert.equal(r.errorName, 'BAD_PARAMETER');
  assert.equal(r.message, 'parameter 2 ✗');
  assert.equal(r.appStatus, -7);
  assert.equal(r.appStatusMessage, 'app');
  assert.deepEqual(r.results.map((t) => [...t]), tables.map((t) => [...t]));
  assert.equal(r.serverNanos, 123456789);
  assert.equal(r.catalogVersion, 12);
  assert.equal(r.errorCode, 8);
  assert.equal(r.topologyVersion, 2 ** 33);
});

test('a response skips fields it does not know and gives defaults for those left out', () => {
  const known = responseFrame({ clientHandle: 9, status: 1 });
  // field 15 (varint), field 16 (fixed64), field 17 (bytes), field 18 (fixed32) inside the response
  const extra = Buffer.from([0x78, 0x05, 0x81, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, 0x8a, 0x01, 0x02, 0xaa, 0xbb, 0x95, 0x01, 1, 2, 3, 4]);
  const body = Buffer.concat([known.subarray(2), extra]);
  const frame = Buffer.concat([Buffer.from([0x12, body.length]), body, Buffer.from([0x18, 0x01])]);
  const r = decodeResponse(frame);
  assert.equal(r.clientHandle, 9);
  assert.equal(r.status, 1);
  assert.equal(r.message, '');
  assert.deepEqual(r.results, []);
});

test('a login answer is not a response', () => {
  const login = Buffer.from(ServerMessage.encode({ login: { status: 1, connectionId: 3 } }).finish());
  assert.equal(decodeResponse(login), undefined);
});

test('malformed responses are ProtocolErrors naming the byte', () => {
  const good = responseFrame({ clientHandle: 300, status: 1, results: [Buffer.alloc(10)] });
  for (let cut = 1; cut < good.length; cut++) {
    assert.throws(() => decodeResponse(good.subarray(0, cut)), ProtocolError, `cut at ${cut}`);
  }
  assert.throws(() => decodeResponse(Buffer.from([0x12, 0x02, 0x0b, 0x00])), /wire type 3/);
  assert.throws(() => decodeResponse(Buffer.from([0x12, 0x01, 0x00])), /field number 0/);
  assert.throws(() => decodeResponse(Buffer.from([0x12, 0x0b, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])),
    /malformed response frame at byte \d+: varint longer than 10 bytes/);
});
