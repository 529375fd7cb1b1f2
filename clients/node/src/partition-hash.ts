// The partition hash (docs/partition-hash.md): FNV-1a-64 over a value's
// canonical bytes, then MurmurHash3's fmix64; the top 14 bits pick one of
// 16,384 buckets; the topology's bucket table (or bucket mod partition count)
// picks the partition. Checked against tests/vectors/partition_hash.tsv.
//
// 64-bit arithmetic runs on two unsigned 32-bit halves (uint64.ts; no BigInt
// on the hot path); the state is module-level, so hashing allocates nothing.
// Thread model: JavaScript's single thread.

import { mul64, product } from './uint64.js';

export const HASH_ALGORITHM = 'fnv1a64-fmix64';
export const BUCKET_BITS = 14;

const FNV_OFFSET_HI = 0xcbf29ce4, FNV_OFFSET_LO = 0x84222325;
const FNV_PRIME_HI = 0x00000100, FNV_PRIME_LO = 0x000001b3;
const FMIX1_HI = 0xff51afd7, FMIX1_LO = 0xed558ccd;
const FMIX2_HI = 0xc4ceb9fe, FMIX2_LO = 0x1a85ec53;

let hi = 0;
let lo = 0;

// (hi, lo) *= (bh, bl), modulo 2^64.
function mul(bh: number, bl: number): void {
  mul64(hi, lo, bh, bl);
  hi = product.hi;
  lo = product.lo;
}

function fnvByte(b: number): void {
  lo = (lo ^ b) >>> 0;
  mul(FNV_PRIME_HI, FNV_PRIME_LO);
}

function fnvWord(w: number): void {
  fnvByte(w & 0xff);
  fnvByte((w >>> 8) & 0xff);
  fnvByte((w >>> 16) & 0xff);
  fnvByte(w >>> 24);
}

function fmix(): void {
  lo = (lo ^ (hi >>> 1)) >>> 0;
  mul(FMIX1_HI, FMIX1_LO);
  lo = (lo ^ (hi >>> 1)) >>> 0;
  mul(FMIX2_HI, FMIX2_LO);
  lo = (lo ^ (hi >>> 1)) >>> 0;
}

/** Hashes a signed 64-bit integer given as its two 32-bit halves (any sign); returns the bucket. */
function bucketOfHalves(high: number, low: number): number {
  hi = FNV_OFFSET_HI;
  lo = FNV_OFFSET_LO;
  fnvWord(low >>> 0);
  fnvWord(high >>> 0);
  fmix();
  return hi >>> (32 - BUCKET_BITS);
}

/** The bucket of a 64-bit integer (an integer column or a TIMESTAMP's microseconds). */
export function bucketOfInteger(v: number | bigint): number {
  if (typeof v === 'bigint') {
    return bucketOfHalves(Number((v >> 32n) & 0xffffffffn), Number(v & 0xffffffffn));
  }
  // A safe integer: its low 32 bits, and the high bits by division (floor, two's complement).
  const low = v % 0x100000000;
  const high = Math.floor(v / 0x100000000);
  return bucketOfHalves(high | 0, low < 0 ? low + 0x100000000 : low);
}

/** The bucket of a byte string (VARCHAR's UTF-8, VARBINARY's bytes). */
export function bucketOfBytes(bytes: Uint8Array): number {
  hi = FNV_OFFSET_HI;
  lo = FNV_OFFSET_LO;
  for (let i = 0; i < bytes.length; i++) fnvByte(bytes[i]);
  fmix();
  return hi >>> (32 - BUCKET_BITS);
}

/** The full 64-bit hash of a byte string, as 16 hex digits (for tests). */
export function hashHex(bytes: Uint8Array): string {
  bucketOfBytes(bytes);
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}
