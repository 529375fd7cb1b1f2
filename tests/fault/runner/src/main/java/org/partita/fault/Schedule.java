package org.partita.fault;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A run's fault schedule, fixed by its seed: each fault comes after a quiet
 * spell of {@link #QUIET_MIN_MILLIS}–{@link #QUIET_MAX_MILLIS} ms counted
 * from the end of the previous fault's healing (so the workload always
 * gets a quiet spell, however long a restart takes), is drawn from the
 * run's nemeses, and is held {@link #FAULT_MIN_MILLIS}–{@link
 * #FAULT_MAX_MILLIS} ms (pauses and network cuts at least {@link
 * #PAUSE_MIN_MILLIS}, past the workers' call timeout) before healing. The
 * list is long enough for the run if healing took no time; {@link
 * NemesisRunner} stops starting faults {@link #TAIL_MILLIS} ms before the
 * workload's end, so every run ends quiet. Immutable.
 */
record Schedule(List<Fault> faults) {
  static final long QUIET_MIN_MILLIS = 2_000;
  static final long QUIET_MAX_MILLIS = 5_000;
  static final long FAULT_MIN_MILLIS = 1_000;
  static final long FAULT_MAX_MILLIS = 4_000;
  static final long PAUSE_MIN_MILLIS = 2_500;
  static final long TAIL_MILLIS = 5_000;

  /** One planned fault: the quiet spell before it, which nemesis, how long it is held (ms). */
  record Fault(long quietMillis, String nemesis, long holdMillis) {
  }

  /** The schedule for {@code nemeses} over {@code seconds} of workload, drawn from {@code seed}; kills unlimited. */
  static Schedule plan(long seed, List<String> nemeses, int seconds) {
    return plan(seed, nemeses, seconds, Integer.MAX_VALUE);
  }

  /**
   * As {@link #plan(long, List, int)}, with at most {@code killLimit}
   * kills: once they are used up, a draw that names {@code kill} names one
   * of the other nemeses instead, and with no other nemesis the schedule
   * ends there. Below the limit the draws are those of the unlimited plan.
   */
  static Schedule plan(long seed, List<String> nemeses, int seconds, int killLimit) {
    final List<Fault> faults = new ArrayList<>();
    if (nemeses.isEmpty()) {
      return new Schedule(faults);
    }
    final List<String> others = nemeses.stream().filter(n -> !n.equals("kill")).toList();
    final Random random = new Random(seed);
    final long end = seconds * 1000L - TAIL_MILLIS;
    long t = 0;
    int kills = 0;
    while (true) {
      final long quiet = between(random, QUIET_MIN_MILLIS, QUIET_MAX_MILLIS);
      String nemesis = nemeses.get(random.nextInt(nemeses.size()));
      if (nemesis.equals("kill") && kills >= killLimit) {
        if (others.isEmpty()) {
          break;
        }
        nemesis = others.get(random.nextInt(others.size()));
      }
      final long min = longHold(nemesis) ? PAUSE_MIN_MILLIS : FAULT_MIN_MILLIS;
      final long hold = between(random, min, Math.max(min, FAULT_MAX_MILLIS));
      if (t + quiet + hold > end) {
        break;
      }
      faults.add(new Fault(quiet, nemesis, hold));
      kills += nemesis.equals("kill") ? 1 : 0;
      t += quiet + hold;
    }
    return new Schedule(List.copyOf(faults));
  }

  /** Pauses and network cuts are held past the workers' call timeout, so calls caught in them time out. */
  static boolean longHold(String nemesis) {
    return nemesis.equals("pause") || Nemeses.NETWORK.contains(nemesis);
  }

  private static long between(Random random, long min, long max) {
    return min + (long) (random.nextDouble() * (max - min));
  }
}
