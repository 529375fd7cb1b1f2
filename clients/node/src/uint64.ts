// Unsigned 64-bit multiplication on two 32-bit halves, for hashing without
// BigInt on hot paths (partition-hash.ts; the Voter driver's SplitRandom).
// The product lands in `product` so that nothing is allocated per call.
// Thread model: JavaScript's single thread.

/** The result of the last mul64: high and low unsigned 32-bit halves. */
export const product = { hi: 0, lo: 0 };

/**
 * Sets `product` to (ah, al) x (bh, bl) modulo 2^64. The factors are split
 * into 16-bit limbs so that no partial sum passes 2^32.
 */
export function mul64(ah: number, al: number, bh: number, bl: number): void {
  const a48 = ah >>> 16, a32 = ah & 0xffff, a16 = al >>> 16, a00 = al & 0xffff;
  const b48 = bh >>> 16, b32 = bh & 0xffff, b16 = bl >>> 16, b00 = bl & 0xffff;
  let c00 = a00 * b00;
  let c16 = c00 >>> 16;
  c00 &= 0xffff;
  c16 += a16 * b00;
  let c32 = c16 >>> 16;
  c16 &= 0xffff;
  c16 += a00 * b16;
  c32 += c16 >>> 16;
  c16 &= 0xffff;
  c32 += a32 * b00;
  let c48 = c32 >>> 16;
  c32 &= 0xffff;
  c32 += a16 * b16;
  c48 += c32 >>> 16;
  c32 &= 0xffff;
  c32 += a00 * b32;
  c48 += c32 >>> 16;
  c32 &= 0xffff;
  c48 += a48 * b00 + a32 * b16 + a16 * b32 + a00 * b48;
  c48 &= 0xffff;
  product.hi = ((c48 << 16) | c32) >>> 0;
  product.lo = ((c16 << 16) | c00) >>> 0;
}
