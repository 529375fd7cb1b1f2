package org.partita.fault;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The audit of writes against the final state: every write a worker saw
 * acknowledged (that took effect by its answer) must be found by the
 * workload's audit query, and no write a worker saw fail may be.
 *
 * @param acknowledged writes acknowledged
 * @param lost acknowledged write ids the final state lacks
 * @param failedPresent failed write ids the final state holds
 */
record Audit(int acknowledged, Set<Long> lost, Set<Long> failedPresent) {

  static Audit of(List<Worker> workers, Set<Long> applied) {
    final List<Operation> acknowledgedWrites = new ArrayList<>();
    final Set<Long> lost = new TreeSet<>();
    final Set<Long> failedPresent = new TreeSet<>();
    for (Worker w : workers) {
      acknowledgedWrites.addAll(w.acknowledgedWrites());
      for (Operation op : w.failedWrites()) {
        if (applied.contains(op.writeId())) {
          failedPresent.add(op.writeId());
        }
      }
    }
    for (Operation op : acknowledgedWrites) {
      if (!applied.contains(op.writeId())) {
        lost.add(op.writeId());
      }
    }
    return new Audit(acknowledgedWrites.size(), lost, failedPresent);
  }

  boolean passed() {
    return lost.isEmpty() && failedPresent.isEmpty();
  }

  /** The report's line. */
  String line() {
    return "audit: " + acknowledged + " acknowledged writes, " + lost.size() + " missing from the final state "
        + first(lost) + ", " + failedPresent.size() + " failed writes present " + first(failedPresent);
  }

  private static String first(Set<Long> ids) {
    return ids.stream().limit(10).toList().toString();
  }
}
