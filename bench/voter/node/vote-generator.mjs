// VoteGenerator: the phone calls of the Voter workload, drawn exactly as the
// Java and C++ drivers draw them (bench/voter/README.md, "Distribution";
// bench/voter/cpp/vote_generator.h): a known area code (uniformly) x 10^7 +
// 7 random digits; 1 call in 100 for contestant n + 1, which does not exist;
// otherwise half for the area code's favourite and half by weights 1/k.
// The area codes are read from the Java table (AreaCodes.java), the one list.
// Thread model: one per worker.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const AREA_CODES_JAVA = join(dirname(fileURLToPath(import.meta.url)), '..', 'procedures', 'org', 'partita', 'bench',
  'voter', 'AreaCodes.java');
const INVALID_ONE_IN = 100;
const AREA_CODE_MULTIPLIER = 10_000_000;
const GOLDEN_RATIO_FRACTION = 0.618033988749895;

/** The area codes of AreaCodes.java, in order. */
export function readAreaCodes(path = AREA_CODES_JAVA) {
  const match = /int\[\] CODES = \{([^}]*)\}/.exec(readFileSync(path, 'utf8'));
  if (!match) throw new Error(`${path}: no 'int[] CODES = {...}' array`);
  const codes = match[1].match(/\d+/g).map(Number);
  if (codes.length === 0) throw new Error(`${path}: the CODES array is empty`);
  return codes;
}

const AREA_CODES = readAreaCodes();

export class VoteGenerator {
  /** @param {number} contestants  @param {import('./split-random.mjs').SplitRandom} random */
  constructor(contestants, random) {
    this.random = random;
    this.contestants = contestants;
    this.cumulative = new Float64Array(contestants);
    let sum = 0;
    for (let k = 1; k <= contestants; k++) {
      sum += 1 / k;
      this.cumulative[k - 1] = sum;
    }
    for (let i = 0; i < contestants; i++) this.cumulative[i] /= sum;
    this.cumulative[contestants - 1] = 1;
    this.favourites = AREA_CODES.map((_, i) => this.pick((i * GOLDEN_RATIO_FRACTION) % 1));
    this.phone = 0;
    this.contestant = 0;
  }

  /** An independent generator with the same contestants. */
  split() {
    return new VoteGenerator(this.contestants, this.random.split());
  }

  /** Draws the next call into `phone` and `contestant`. */
  next() {
    const r = this.random;
    const area = r.nextInt(AREA_CODES.length);
    this.phone = AREA_CODES[area] * AREA_CODE_MULTIPLIER + r.nextInt(AREA_CODE_MULTIPLIER);
    if (r.nextInt(INVALID_ONE_IN) === 0) {
      this.contestant = this.contestants + 1;
    } else if (r.nextBoolean()) {
      this.contestant = this.favourites[area];
    } else {
      this.contestant = this.pick(r.nextDouble());
    }
  }

  weight(k) {
    return this.cumulative[k - 1] - (k > 1 ? this.cumulative[k - 2] : 0);
  }

  favourite(areaIndex) {
    return this.favourites[areaIndex];
  }

  // The contestant (from 1) whose bucket holds u: Java's Arrays.binarySearch,
  // where an exact hit at i picks i + 2 and a miss the insertion point + 1.
  pick(u) {
    let lo = 0, hi = this.cumulative.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid] < u) lo = mid + 1; else hi = mid;
    }
    if (lo < this.cumulative.length && this.cumulative[lo] === u) lo++;
    return Math.min(lo, this.cumulative.length - 1) + 1;
  }
}
