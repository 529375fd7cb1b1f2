package org.partita.fault;

import java.util.List;
import java.util.Random;
import org.partita.client.PartitaClient;

/**
 * A workload (tests/fault/README.md, the checker's table): its schema, its
 * initial rows, the operations workers draw, the final reads, and the
 * queries that audit it. Implementations are shared by every worker and
 * thread-safe.
 */
interface Workload {
  /** The checker's --workload name. */
  String name();

  /** The schema's file name under tests/fault/workloads/. */
  String schemaFile();

  /** Loads the initial rows through {@code client}; throws when the server refuses them. */
  void setup(PartitaClient client);

  /** The next operation of a worker, {@code elapsedNanos} into the run. */
  Operation next(Random random, long elapsedNanos);

  /** Tells the workload what an operation returned (ok answers only). */
  default void observed(Operation operation, String completion) {
  }

  /** The reads made from every host after healing (each recorded with {@code final: true}). */
  List<Operation> finalReads();

  /**
   * For a final read made of several single-partition calls: those calls,
   * whose rows' first columns together are the read's answer (a JSON array,
   * sorted); null when {@code read} is one call.
   */
  default List<Query> unionOf(Operation read) {
    return null;
  }

  /** Calls returning, in their first BIGINT column, the write id of every write that took effect. */
  List<Query> auditQueries();

  /** Calls whose rows, in order, are the whole state compared between copies. */
  List<Query> stateQueries();

  /**
   * Why the workload needs multi-partition transactions (on a cluster they
   * all go through the host leading partition 0, the coordinator, whose
   * death moves them to partition 0's new leader; the run's summary says
   * so); null when every call it makes is single-partition.
   */
  default String multiPartitionReason() {
    return null;
  }

  /** Extra arguments for the checker (e.g. the bank's --total). */
  default List<String> checkerArguments() {
    return List.of();
  }
}
