// A rate over a sliding window: the growth of a counter per second.

/**
 * Takes (time in ms, counter value) samples and answers the counter's growth
 * per second over the last `windowMs`. A counter that goes down (the server
 * restarted) starts the window afresh.
 */
export class RateMeter {
  constructor(windowMs) {
    this.windowMs = windowMs;
    this.samples = [];
  }

  add(timeMs, count) {
    const last = this.samples[this.samples.length - 1];
    if (last && count < last.count) {
      this.samples = [];
    }
    this.samples.push({ timeMs, count });
    while (this.samples.length > 2 && timeMs - this.samples[1].timeMs >= this.windowMs) {
      this.samples.shift();
    }
  }

  /** Counts per second, or null until two samples at least 200 ms apart exist. */
  perSecond() {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || last.timeMs - first.timeMs < 200) {
      return null;
    }
    return ((last.count - first.count) * 1000) / (last.timeMs - first.timeMs);
  }

  reset() {
    this.samples = [];
  }
}
