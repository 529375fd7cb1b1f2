package org.partita.server.planner;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.partita.proto.PlanNode;
import org.partita.server.catalog.Schema;

/**
 * What the subqueries of one statement share while it is planned.
 *
 * <p>A subquery's plan runs inside the statement's plan, on whatever site runs
 * that part of it. Over replicated tables it can run anywhere. Over a
 * partitioned table it cannot run inside one partition: the statement is then
 * planned again in <em>remote</em> mode, where every partitioned table (of the
 * outer query and of every subquery) is read by a per-partition fragment and
 * reaches the plan through a RECEIVE, so that the whole statement runs on the
 * coordinator over complete tables.
 */
final class SubqueryContext {
  private final Schema schema;
  private final boolean remote;
  private final TableStatistics statistics;
  private final List<Fragment> fragments = new ArrayList<>();
  private boolean needsRemote;

  SubqueryContext(Schema schema, boolean remote, TableStatistics statistics) {
    this.schema = schema;
    this.remote = remote;
    this.statistics = statistics;
  }

  Schema schema() {
    return schema;
  }

  /** The row counts joins are ordered by. */
  TableStatistics statistics() {
    return statistics;
  }

  boolean remote() {
    return remote;
  }

  /** The fragments that RECEIVE nodes of remote mode read, in dependency-id order. */
  List<Fragment> fragments() {
    return fragments;
  }

  /** Whether some subquery read a partitioned table outside remote mode. */
  boolean needsRemote() {
    return needsRemote;
  }

  /** The complete plan of a subquery block. */
  PlanNode assembleSubquery(SelectParts parts) throws PlanningException {
    final Set<FromTable> partitioned = partitionedTables(parts.tables());
    if (partitioned.isEmpty()) {
      return SelectAssembler.local(parts);
    }
    if (!remote) {
      needsRemote = true;
      return SelectAssembler.local(parts);
    }
    return SelectAssembler.local(parts.withSource(remoteSource(parts, partitioned)));
  }

  /** The FROM/WHERE part of {@code parts} with its partitioned tables read through RECEIVE. */
  PlanNode remoteSource(SelectParts parts, Set<FromTable> partitioned) throws PlanningException {
    return JoinPlanner.planWithRemoteTables(parts.tables(), parts.where(), partitioned,
        PartitionAnalyzer.viewsToMerge(schema, parts.tables()), fragments, statistics);
  }

  Set<FromTable> partitionedTables(List<FromTable> tables) {
    final Set<FromTable> partitioned = new LinkedHashSet<>();
    for (FromTable t : tables) {
      if (schema.isPartitioned(t.table())) {
        partitioned.add(t);
      }
    }
    return partitioned;
  }
}
