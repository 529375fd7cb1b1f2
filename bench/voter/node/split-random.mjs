// SplitRandom: java.util.SplittableRandom (SplitMix64) bit for bit, as the
// Java and C++ drivers use it (bench/common/cpp/split_random.h): the same
// seed gives the same nextLong, nextInt(bound), nextDouble and nextBoolean.
// 64-bit state lives in two unsigned 32-bit halves (the client's uint64
// module) so that drawing costs no BigInt arithmetic; only split() (rare)
// uses BigInt.
// Thread model: one per worker; not shared.

import { mul64, product } from '../../../clients/node/dist/esm/uint64.js';

const GOLDEN_GAMMA = 0x9e3779b97f4a7c15n;
const MASK64 = (1n << 64n) - 1n;

let H = 0;
let L = 0;
function mul(ah, al, bh, bl) {
  mul64(ah, al, bh, bl);
  H = product.hi;
  L = product.lo;
}

function split64(v) {
  const u = BigInt.asUintN(64, v);
  return [Number(u >> 32n), Number(u & 0xffffffffn)];
}

export class SplitRandom {
  /** @param {bigint|number} seed  @param {bigint} [gamma] */
  constructor(seed, gamma = GOLDEN_GAMMA) {
    [this.sh, this.sl] = split64(BigInt(seed));
    [this.gh, this.gl] = split64(gamma);
  }

  // seed += gamma; leaves the new seed in H, L.
  nextSeed() {
    const lo = this.sl + this.gl;
    this.sl = lo >>> 0;
    this.sh = (this.sh + this.gh + (lo > 0xffffffff ? 1 : 0)) >>> 0;
    H = this.sh;
    L = this.sl;
  }

  /** The next 64-bit value as [high, low] unsigned halves. */
  nextLongHalves() {
    this.nextSeed();
    // z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9
    let h = H, l = L;
    l = (l ^ ((l >>> 30) | (h << 2))) >>> 0;
    h = (h ^ (h >>> 30)) >>> 0;
    mul(h, l, 0xbf58476d, 0x1ce4e5b9);
    // z = (z ^ (z >>> 27)) * 0x94d049bb133111eb
    h = H; l = L;
    l = (l ^ ((l >>> 27) | (h << 5))) >>> 0;
    h = (h ^ (h >>> 27)) >>> 0;
    mul(h, l, 0x94d049bb, 0x133111eb);
    // z ^ (z >>> 31)
    h = H; l = L;
    L = (l ^ ((l >>> 31) | (h << 1))) >>> 0;
    H = (h ^ (h >>> 31)) >>> 0;
    return [H, L];
  }

  /** The next long as a bigint (signed). */
  nextLong() {
    const [h, l] = this.nextLongHalves();
    return BigInt.asIntN(64, (BigInt(h) << 32n) | BigInt(l));
  }

  /** The next int (signed 32 bits). */
  nextInt32() {
    this.nextSeed();
    // z = (z ^ (z >>> 33)) * 0x62a9d9ed799705f5
    mul(H, (L ^ (H >>> 1)) >>> 0, 0x62a9d9ed, 0x799705f5);
    // (int) (((z ^ (z >>> 28)) * 0xcb24d0a5c88c35b3) >>> 32)
    const h = H, l = L;
    mul((h ^ (h >>> 28)) >>> 0, (l ^ ((l >>> 28) | (h << 4))) >>> 0, 0xcb24d0a5, 0xc88c35b3);
    return H | 0;
  }

  /** Uniform in [0, bound), as Java's nextInt(bound). REQUIRES: 0 < bound < 2^31. */
  nextInt(bound) {
    let r = this.nextInt32();
    const m = bound - 1;
    if ((bound & m) === 0) return r & m;
    for (let u = r >>> 1; ; u = this.nextInt32() >>> 1) {
      r = u % bound;
      if (((u + m - r) | 0) >= 0) return r;
    }
  }

  /** Uniform in [0, 1), 53 random bits. */
  nextDouble() {
    const [h, l] = this.nextLongHalves();
    return (h * 0x200000 + (l >>> 11)) * 2 ** -53;
  }

  nextBoolean() {
    return this.nextInt32() < 0;
  }

  /** An independent generator; advances this one. */
  split() {
    const seed = this.nextLong();
    this.nextSeed();
    return new SplitRandom(seed, mixGamma((BigInt(H) << 32n) | BigInt(L)));
  }
}

function mixGamma(z) {
  z = ((z ^ (z >> 33n)) * 0xff51afd7ed558ccdn) & MASK64;
  z = ((z ^ (z >> 33n)) * 0xc4ceb9fe1a85ec53n) & MASK64;
  z = (z ^ (z >> 33n)) | 1n;
  let n = 0;
  for (let x = z ^ (z >> 1n); x !== 0n; x &= x - 1n) n++;
  return n < 24 ? z ^ 0xaaaaaaaaaaaaaaaan : z;
}
