package org.partita.server.catalog;

import java.util.List;
import org.partita.proto.AggregateKind;
import org.partita.proto.Expression;
import org.partita.proto.MaterializedView;

/**
 * How a materialized view is derived from its source table: the view's first
 * {@code groupBy.size()} columns are the group-by columns, then one column per
 * aggregate. The engine keeps it up to date in every transaction.
 *
 * @param sourceTable the table the view aggregates
 * @param groupBy source column positions of the GROUP BY
 * @param aggregates one per aggregate column
 * @param predicate the WHERE over source rows, or null
 * @param sql the CREATE VIEW text, for error messages and the system catalog
 */
public record ViewDef(
    String sourceTable, List<Integer> groupBy, List<Aggregate> aggregates, Expression predicate, String sql) {

  /** An aggregate column: COUNT(*) has sourceColumn -1. */
  public record Aggregate(AggregateKind kind, int sourceColumn) {}

  public ViewDef {
    groupBy = List.copyOf(groupBy);
    aggregates = List.copyOf(aggregates);
  }

  public MaterializedView toProto() {
    final MaterializedView.Builder view =
        MaterializedView.newBuilder().setSourceTable(sourceTable).addAllGroupByColumns(groupBy);
    for (Aggregate aggregate : aggregates) {
      view.addAggregates(
          MaterializedView.ViewAggregate.newBuilder()
              .setKind(aggregate.kind())
              .setSourceColumn(Math.max(aggregate.sourceColumn(), 0)));
    }
    if (predicate != null) {
      view.setPredicate(predicate);
    }
    return view.build();
  }
}
