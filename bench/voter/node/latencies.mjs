// Latencies: a log-linear histogram of round-trip times in microseconds
// (exact below 1,024 µs, then 128 sub-buckets per power of two: under 1%
// error), small enough to send between processes and merge exactly.
// Thread model: one per worker; the primary merges copies.
const SUB_BITS = 7;
const SUB = 1 << SUB_BITS;
const LINEAR = 1024;
const MAX_MICROS = 3_600_000_000;

function indexOf(micros) {
  if (micros < LINEAR) return micros;
  const exp = Math.floor(Math.log2(micros));
  const sub = Math.floor(micros / 2 ** (exp - SUB_BITS)) - SUB;
  return LINEAR + (exp - 10) * SUB + sub;
}

function valueOf(index) {
  if (index < LINEAR) return index;
  const exp = Math.floor((index - LINEAR) / SUB) + 10;
  const sub = (index - LINEAR) % SUB;
  return (SUB + sub + 0.5) * 2 ** (exp - SUB_BITS);
}

export class Latencies {
  constructor() {
    this.counts = new Float64Array(indexOf(MAX_MICROS) + 1);
    this.count = 0;
    this.sum = 0;
    this.max = 0;
  }

  record(micros) {
    const m = Math.min(Math.max(Math.round(micros), 1), MAX_MICROS);
    this.counts[indexOf(m)]++;
    this.count++;
    this.sum += m;
    if (m > this.max) this.max = m;
  }

  /** A compact copy for another process: [index, count] pairs of non-empty buckets. */
  toJSON() {
    const buckets = [];
    for (let i = 0; i < this.counts.length; i++) if (this.counts[i] > 0) buckets.push([i, this.counts[i]]);
    return { buckets, count: this.count, sum: this.sum, max: this.max };
  }

  add(json) {
    for (const [i, n] of json.buckets) this.counts[i] += n;
    this.count += json.count;
    this.sum += json.sum;
    this.max = Math.max(this.max, json.max);
  }

  percentileMicros(p) {
    if (this.count === 0) return 0;
    const rank = Math.max(1, Math.ceil((p / 100) * this.count));
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i];
      if (seen >= rank) return Math.min(valueOf(i), this.max);
    }
    return this.max;
  }

  /** { count, avgMs, p50Ms, p95Ms, p99Ms, p999Ms, maxMs } */
  summary() {
    const ms = (us) => us / 1000;
    return {
      count: this.count,
      avgMs: this.count ? ms(this.sum / this.count) : 0,
      p50Ms: ms(this.percentileMicros(50)),
      p95Ms: ms(this.percentileMicros(95)),
      p99Ms: ms(this.percentileMicros(99)),
      p999Ms: ms(this.percentileMicros(99.9)),
      maxMs: ms(this.max),
    };
  }
}
