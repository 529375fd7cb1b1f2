package org.partita.fault;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Availability over a run, from the workers' completions and the fault
 * windows (start of the fault to the end of its healing): the share of
 * operations that succeeded among those invoked inside a fault and among
 * the others, for each fault the time from its start and from its healing
 * to the first success of an operation invoked after it, and the longest time without any success between
 * the workload's start and end. Immutable once computed.
 */
final class Availability {
  private final List<History.Completion> completions;
  private final List<History.FaultWindow> faults;
  private final long start;
  private final long end;

  Availability(List<History.Completion> completions, List<History.FaultWindow> faults, long start, long end) {
    this.completions = completions;
    this.faults = faults;
    this.start = start;
    this.end = end;
  }

  /** The report's lines. */
  List<String> lines() {
    final List<String> out = new ArrayList<>();
    out.add(rate("outside faults", false));
    out.add(rate("inside faults", true));
    int n = 1;
    for (History.FaultWindow f : faults) {
      out.add(String.format(Locale.ROOT, "fault %d %s at %s for %s (%s): first success %s after it began, %s after"
          + " healing", n++, f.nemesis(), seconds(f.start() - start), seconds(f.end() - f.start()), f.target(),
          afterOrNever(f.start()), afterOrNever(f.end())));
    }
    final long[] gap = longestGap();
    out.add("longest gap without a success: " + seconds(gap[1]) + " (from " + seconds(gap[0] - start)
        + " into the workload)");
    return out;
  }

  /** [start of the gap, its length] in nanoseconds. */
  long[] longestGap() {
    long previous = start;
    long bestFrom = start;
    long best = 0;
    final List<Long> successes = new ArrayList<>();
    for (History.Completion c : completions) {
      if (c.outcome() == Outcome.OK && c.completed() >= start && c.completed() <= end) {
        successes.add(c.completed());
      }
    }
    successes.sort(Long::compare);
    successes.add(end);
    for (long t : successes) {
      if (t - previous > best) {
        best = t - previous;
        bestFrom = previous;
      }
      previous = t;
    }
    return new long[] {bestFrom, best};
  }

  /**
   * Nanoseconds from {@code time} to the first success of an operation
   * invoked at or after it (an answer already on its way when a fault
   * struck says nothing of the fault), or -1 for none.
   */
  long firstSuccessAfter(long time) {
    long best = -1;
    for (History.Completion c : completions) {
      if (c.outcome() == Outcome.OK && c.invoked() >= time && (best < 0 || c.completed() - time < best)) {
        best = c.completed() - time;
      }
    }
    return best;
  }

  /** Successes over operations invoked inside (or outside) every fault window. */
  double[] successRate(boolean inside) {
    long ok = 0;
    long all = 0;
    for (History.Completion c : completions) {
      if (insideFault(c.invoked()) == inside) {
        all++;
        ok += c.outcome() == Outcome.OK ? 1 : 0;
      }
    }
    return new double[] {all == 0 ? Double.NaN : (double) ok / all, all};
  }

  private boolean insideFault(long time) {
    for (History.FaultWindow f : faults) {
      if (time >= f.start() && time <= f.end()) {
        return true;
      }
    }
    return false;
  }

  private String rate(String where, boolean inside) {
    final double[] r = successRate(inside);
    if (r[1] == 0) {
      return "success rate " + where + ": no operations";
    }
    return String.format(Locale.ROOT, "success rate %s: %.1f %% of %d operations", where, 100 * r[0], (long) r[1]);
  }

  private String afterOrNever(long time) {
    final long after = firstSuccessAfter(time);
    return after < 0 ? "never" : seconds(after);
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.3f s", nanos / 1e9);
  }
}
