package org.partita.fault;

import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Plays a {@link Schedule} against the hosts on its own thread: after each
 * fault's quiet spell it logs the fault's start into the history, injects
 * it, holds it, heals it and logs its end once the hosts answer again. No
 * fault starts unless it would be healed {@link Schedule#TAIL_MILLIS} ms
 * before the workload's end (healing time aside). The first error (a host
 * that does not come back) stops the schedule and is kept for the report.
 */
final class NemesisRunner implements Runnable {
  private final Schedule schedule;
  private final Hosts hosts;
  private final History history;
  private final Random random;
  private final long endNanos;
  private volatile Exception error;
  private volatile int injected;

  NemesisRunner(Schedule schedule, Hosts hosts, History history, long seed, long endNanos) {
    this.schedule = schedule;
    this.hosts = hosts;
    this.history = history;
    this.random = new Random(seed);
    this.endNanos = endNanos;
  }

  /** What stopped the schedule, or null. */
  Exception error() {
    return error;
  }

  /** Faults injected (and healed, unless {@link #error} says otherwise). */
  int injected() {
    return injected;
  }

  @Override
  public void run() {
    try {
      for (Schedule.Fault fault : schedule.faults()) {
        TimeUnit.MILLISECONDS.sleep(fault.quietMillis());
        final long healedBy = history.now() + TimeUnit.MILLISECONDS.toNanos(fault.holdMillis()
            + Schedule.TAIL_MILLIS);
        if (healedBy > endNanos) {
          return;
        }
        play(fault);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      error = e;
    }
  }

  private void play(Schedule.Fault fault) throws Exception {
    final Nemesis nemesis = Nemeses.named(fault.nemesis());
    final int number = injected + 1;
    history.nemesis(nemesis.name(), "start", number, "held " + fault.holdMillis() + " ms");
    final List<Integer> targets = nemesis.inject(hosts, random);
    injected = number;
    TimeUnit.MILLISECONDS.sleep(fault.holdMillis());
    nemesis.heal(hosts, targets);
    final String detail = nemesis.detail();
    history.nemesis(nemesis.name(), "end", number, "hosts " + describe(targets)
        + (detail.isEmpty() ? "" : ": " + detail));
  }

  private String describe(List<Integer> targets) {
    final List<String> addresses = hosts.addresses();
    final StringBuilder out = new StringBuilder();
    for (int h : targets) {
      out.append(out.length() == 0 ? "" : ",").append(addresses.get(h));
    }
    return out.toString();
  }
}
