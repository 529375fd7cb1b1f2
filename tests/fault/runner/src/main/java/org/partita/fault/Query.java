package org.partita.fault;

import java.util.Arrays;
import java.util.List;

/**
 * One call the runner makes after the faults to audit a workload or to
 * take its state: a procedure and its parameters ({@code @AdHoc} with the
 * SQL first for ad-hoc SQL). The single-partition workloads' queries are
 * single-partition, so they need no coordinator (see {@link
 * Workload#multiPartitionReason}).
 * Immutable.
 */
record Query(String procedure, Object... parameters) {
  /** Ad-hoc SQL statements, one call each. */
  static List<Query> adHoc(String... sql) {
    return Arrays.stream(sql).map(s -> new Query("@AdHoc", s)).toList();
  }

  /** The call as text, for the state checksum (so two state lists that differ in their calls differ). */
  String describe() {
    return procedure + Arrays.deepToString(parameters);
  }
}
