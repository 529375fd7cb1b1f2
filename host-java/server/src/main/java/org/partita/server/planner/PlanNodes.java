package org.partita.server.planner;

import java.util.List;
import org.partita.proto.AggregateNode;
import org.partita.proto.DistinctNode;
import org.partita.proto.Expression;
import org.partita.proto.LimitNode;
import org.partita.proto.OutputColumn;
import org.partita.proto.PlanNode;
import org.partita.proto.PlanNodeKind;
import org.partita.proto.ProjectionNode;
import org.partita.proto.SortKey;
import org.partita.proto.SortNode;
import org.partita.proto.ValueType;
import org.partita.server.catalog.ColumnDef;
import org.partita.server.catalog.TableDef;

/** Builders for plan nodes with their output schemas. */
final class PlanNodes {
  private PlanNodes() {}

  static OutputColumn column(String name, ValueType type) {
    return OutputColumn.newBuilder().setName(name).setType(type).build();
  }

  static List<OutputColumn> tableColumns(TableDef table) {
    return table.columns().stream().map((ColumnDef c) -> column(c.name(), c.type())).toList();
  }

  static PlanNode filter(PlanNode child, Expression predicate) {
    if (predicate == null) {
      return child;
    }
    return PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_FILTER)
        .addChildren(child)
        .addAllOutputSchema(child.getOutputSchemaList())
        .setFilterPredicate(predicate)
        .build();
  }

  static PlanNode projection(PlanNode child, List<Expression> columns, List<String> names) {
    final PlanNode.Builder node = PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_PROJECTION)
        .addChildren(child)
        .setProjection(ProjectionNode.newBuilder().addAllColumns(columns));
    for (int i = 0; i < columns.size(); i++) {
      node.addOutputSchema(column(names.get(i), columns.get(i).getValueType()));
    }
    return node.build();
  }

  /** A projection keeping the first {@code count} columns of {@code child}. */
  static PlanNode prefix(PlanNode child, int count) {
    final PlanNode.Builder node = PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_PROJECTION)
        .addChildren(child);
    final ProjectionNode.Builder projection = ProjectionNode.newBuilder();
    for (int i = 0; i < count; i++) {
      final OutputColumn c = child.getOutputSchema(i);
      projection.addColumns(Exprs.column(i, c.getType()));
      node.addOutputSchema(c);
    }
    return node.setProjection(projection).build();
  }

  static PlanNode distinct(PlanNode child) {
    return PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_DISTINCT)
        .addChildren(child)
        .addAllOutputSchema(child.getOutputSchemaList())
        .setDistinct(DistinctNode.getDefaultInstance())
        .build();
  }

  static PlanNode sort(PlanNode child, List<SortKey> keys) {
    return PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_SORT)
        .addChildren(child)
        .addAllOutputSchema(child.getOutputSchemaList())
        .setSort(SortNode.newBuilder().addAllKeys(keys))
        .build();
  }

  static PlanNode limit(PlanNode child, Expression limit, Expression offset) {
    final LimitNode.Builder node = LimitNode.newBuilder();
    if (limit != null) {
      node.setLimit(limit);
    }
    if (offset != null) {
      node.setOffset(offset);
    }
    return PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_LIMIT)
        .addChildren(child)
        .addAllOutputSchema(child.getOutputSchemaList())
        .setLimit(node)
        .build();
  }

  static PlanNode aggregate(PlanNode child, AggregateNode aggregate, List<OutputColumn> output) {
    return PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_AGGREGATE)
        .addChildren(child)
        .addAllOutputSchema(output)
        .setAggregate(aggregate)
        .build();
  }
}
