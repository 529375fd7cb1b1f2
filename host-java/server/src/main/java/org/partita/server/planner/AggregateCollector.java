package org.partita.server.planner;

import java.util.ArrayList;
import java.util.List;
import org.partita.proto.Aggregate;
import org.partita.proto.Expression;

/**
 * The GROUP BY expressions and aggregate calls of one query block. The
 * aggregation's output row is the group-by values followed by one value per
 * aggregate; {@link #groupColumn} and {@link #add} return references into it.
 */
final class AggregateCollector {
  private final List<Expression> groupBy;
  private final List<Aggregate> aggregates = new ArrayList<>();

  AggregateCollector(List<Expression> groupBy) {
    this.groupBy = List.copyOf(groupBy);
  }

  List<Expression> groupBy() {
    return groupBy;
  }

  List<Aggregate> aggregates() {
    return aggregates;
  }

  /** A reference to the group-by value equal to {@code input}, or null. */
  Expression groupColumn(Expression input) {
    final int i = groupBy.indexOf(input);
    return i < 0 ? null : Exprs.column(i, input.getValueType());
  }

  /** Registers an aggregate (reusing an equal one) and returns its reference. */
  Expression add(Aggregate aggregate) {
    int i = aggregates.indexOf(aggregate);
    if (i < 0) {
      aggregates.add(aggregate);
      i = aggregates.size() - 1;
    }
    return Exprs.column(groupBy.size() + i, aggregate.getValueType());
  }

  boolean hasDistinctAggregate() {
    return aggregates.stream().anyMatch(a -> a.getKind() == org.partita.proto.AggregateKind.AGGREGATE_KIND_COUNT_DISTINCT
        || a.getKind() == org.partita.proto.AggregateKind.AGGREGATE_KIND_SUM_DISTINCT
        || a.getKind() == org.partita.proto.AggregateKind.AGGREGATE_KIND_AVG_DISTINCT);
  }
}
