// Time per answer of decoding a typical Vote answer (one 40-byte table):
// the generated protobufjs decoder against the client's own decoder
// (src/response-decoder.ts), each followed by building the Response.
// Run after `node build.mjs`: node bench/decode-response.mjs
import { partita } from '../dist/esm/gen/proto.js';
import { decodeResponse } from '../dist/esm/response-decoder.js';
import { Response } from '../dist/esm/response.js';

const { ServerMessage } = partita.client;
const frame = Buffer.from(ServerMessage.encode({
  response: { clientHandle: 123456, status: 1, results: [Buffer.alloc(40, 7)], serverNanos: 54321, catalogVersion: 1, topologyVersion: 1 },
}).finish());
const toNumber = (v) => (typeof v === 'number' ? v : v.toNumber());

function generated() {
  const r = ServerMessage.decode(frame).response;
  toNumber(r.clientHandle);
  toNumber(r.topologyVersion);
  return new Response(r, toNumber(r.serverNanos), toNumber(r.catalogVersion));
}

function own() {
  const r = decodeResponse(frame);
  return new Response(r, r.serverNanos, r.catalogVersion);
}

for (let round = 1; round <= 3; round++) {
  for (const [name, decode] of [['generated', generated], ['own', own]]) {
    const n = 2_000_000;
    const start = process.hrtime.bigint();
    let sink = 0;
    for (let i = 0; i < n; i++) sink += decode().appStatus;
    console.log(`round ${round} ${name.padEnd(9)} ${(Number(process.hrtime.bigint() - start) / n).toFixed(0)} ns per answer${sink ? '' : ''}`);
  }
}
