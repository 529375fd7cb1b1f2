package org.partita.server.planner;

import java.util.List;
import org.partita.proto.PlanNode;
import org.partita.proto.Value;
import org.partita.proto.ValueType;

/**
 * A planned SQL statement and where it runs.
 *
 * <ul>
 *   <li>{@link Distribution#SINGLE_PARTITION}: {@code plan} runs on one
 *       partition, the one of parameter {@code partitionParameter} or of
 *       {@code partitionValue} (or, in a single-partition procedure, the
 *       procedure's partition).</li>
 *   <li>{@link Distribution#ANY_PARTITION}: reads only replicated tables;
 *       {@code plan} runs on whichever partition the transaction is on.</li>
 *   <li>{@link Distribution#EVERY_PARTITION}: each fragment of
 *       {@code fragments} runs on every partition, then {@code plan} (the
 *       coordinator fragment, reading them through RECEIVE nodes) runs once.</li>
 *   <li>{@link Distribution#REPLICATED_WRITE}: {@code plan} writes a
 *       replicated table, so it runs on every partition; the first partition's
 *       result is the answer.</li>
 * </ul>
 */
public record PlannedStatement(
    String sql,
    Distribution distribution,
    PlanNode plan,
    List<Fragment> fragments,
    List<ValueType> parameterTypes,
    boolean readOnly,
    int partitionParameter,
    Value partitionValue) {

  /** Where a statement runs; see the class comment. */
  public enum Distribution {
    SINGLE_PARTITION, ANY_PARTITION, EVERY_PARTITION, REPLICATED_WRITE,
    /**
     * An INSERT ... VALUES into a partitioned table whose rows belong to
     * different partitions: {@code plan} is run by each partition with only
     * its own rows, and the answer sums their counts. For this distribution
     * {@code partitionParameter} holds the partitioning column's position in
     * the VALUES rows.
     */
    ROUTED_INSERT
  }

  public static final int NO_PARAMETER = -1;

  public PlannedStatement {
    fragments = List.copyOf(fragments);
    parameterTypes = List.copyOf(parameterTypes);
  }

}
