package org.partita.server.planner;

import java.util.List;
import org.partita.proto.Expression;
import org.partita.proto.PlanNode;
import org.partita.proto.SortKey;

/**
 * A planned SELECT block taken apart, so that it can be assembled to run in
 * one place or split between partitions and a coordinator.
 *
 * <p>Row shapes: {@code source} produces the FROM tables' columns; the
 * aggregation (when {@code aggregation} is set) produces group-by values then
 * aggregates; {@code projections} are over the previous row and the first
 * {@code visible} of them are the result; sort keys are over the projected
 * row.
 */
record SelectParts(
    List<FromTable> tables,
    PlanNode source,
    List<Expression> where,
    AggregateCollector aggregation,
    Expression having,
    List<Expression> projections,
    List<String> names,
    int visible,
    boolean distinct,
    List<SortKey> sortKeys,
    Expression limit,
    Expression offset) {

  boolean aggregated() {
    return aggregation != null;
  }

  SelectParts withSource(PlanNode newSource) {
    return new SelectParts(tables, newSource, where, aggregation, having, projections, names, visible, distinct,
        sortKeys, limit, offset);
  }
}
