package org.partita.server.planner;

import java.util.ArrayList;
import java.util.List;
import org.partita.proto.Aggregate;
import org.partita.proto.AggregateKind;
import org.partita.proto.AggregateNode;
import org.partita.proto.AggregatePhase;
import org.partita.proto.Expression;
import org.partita.proto.ExpressionKind;
import org.partita.proto.OutputColumn;
import org.partita.proto.PlanNode;
import org.partita.proto.PlanNodeKind;
import org.partita.proto.ReceiveNode;
import org.partita.proto.ValueType;

/**
 * Puts a {@link SelectParts} back together: whole, to run in one place, or
 * split into a per-partition fragment and a coordinator plan that merges
 * (union; PARTIAL then MERGE aggregation, AVG as sum and count; ORDER BY with
 * LIMIT applied on both sides).
 */
final class SelectAssembler {
  private SelectAssembler() {}

  /** The complete plan over {@code parts.source()}. */
  static PlanNode local(SelectParts original) {
    final SelectParts parts = SortElimination.apply(original);
    PlanNode node = parts.source();
    if (parts.aggregated()) {
      node = aggregate(node, parts, AggregatePhase.AGGREGATE_PHASE_COMPLETE);
    }
    return finish(node, parts);
  }

  /** Projection, DISTINCT, ORDER BY, LIMIT and removal of hidden sort columns. */
  private static PlanNode finish(PlanNode node, SelectParts parts) {
    node = PlanNodes.projection(node, parts.projections(), parts.names());
    return finishProjected(node, parts);
  }

  private static PlanNode finishProjected(PlanNode node, SelectParts parts) {
    if (parts.distinct()) {
      node = PlanNodes.distinct(node);
    }
    if (!parts.sortKeys().isEmpty()) {
      node = PlanNodes.sort(node, parts.sortKeys());
    }
    if (parts.limit() != null || parts.offset() != null) {
      node = PlanNodes.limit(node, parts.limit(), parts.offset());
    }
    if (parts.visible() < parts.projections().size()) {
      node = PlanNodes.prefix(node, parts.visible());
    }
    return node;
  }

  private static PlanNode aggregate(PlanNode input, SelectParts parts, AggregatePhase phase) {
    final AggregateCollector agg = parts.aggregation();
    final AggregateNode.Builder node = AggregateNode.newBuilder().setPhase(phase).addAllGroupBy(agg.groupBy())
        .addAllAggregates(agg.aggregates());
    if (parts.having() != null) {
      node.setHaving(parts.having());
    }
    return PlanNodes.aggregate(input, node.build(), aggregateOutput(agg));
  }

  private static List<OutputColumn> aggregateOutput(AggregateCollector agg) {
    final List<OutputColumn> out = new ArrayList<>();
    for (int i = 0; i < agg.groupBy().size(); i++) {
      out.add(PlanNodes.column("G" + i, agg.groupBy().get(i).getValueType()));
    }
    for (int i = 0; i < agg.aggregates().size(); i++) {
      out.add(PlanNodes.column("A" + i, agg.aggregates().get(i).getValueType()));
    }
    return out;
  }

  /** A RECEIVE of dependency {@code id} producing {@code schema}. */
  static PlanNode receive(int id, List<OutputColumn> schema) {
    return PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_RECEIVE)
        .setReceive(ReceiveNode.newBuilder().setDependencyId(id))
        .addAllOutputSchema(schema)
        .build();
  }

  /**
   * Splits a query whose FROM/WHERE part runs on every partition: returns the
   * fragment (added to {@code fragments}) and the coordinator plan.
   */
  static PlanNode distributed(SelectParts parts, List<Fragment> fragments) {
    final int dependency = fragments.size() + 1;
    if (parts.aggregated() && !parts.aggregation().hasDistinctAggregate()) {
      final PlanNode partial = partialAggregate(parts);
      fragments.add(new Fragment(partial, dependency));
      return finish(mergeAggregate(receive(dependency, partial.getOutputSchemaList()), parts), parts);
    }
    if (parts.aggregated()) {
      fragments.add(new Fragment(parts.source(), dependency));
      return local(parts.withSource(receive(dependency, parts.source().getOutputSchemaList())));
    }
    final SelectParts ordered = SortElimination.apply(parts);
    final boolean indexOrdered = ordered != parts;
    PlanNode fragment = PlanNodes.projection(ordered.source(), parts.projections(), parts.names());
    if (parts.distinct()) {
      fragment = PlanNodes.distinct(fragment);
    }
    if (parts.limit() != null) {
      if (!parts.sortKeys().isEmpty() && !indexOrdered) {
        fragment = PlanNodes.sort(fragment, parts.sortKeys());
      }
      final Expression perPartition = parts.offset() == null ? parts.limit()
          : Exprs.op(ExpressionKind.EXPRESSION_KIND_ADD, ValueType.VALUE_TYPE_BIGINT, parts.limit(), parts.offset());
      fragment = PlanNodes.limit(fragment, perPartition, null);
    }
    fragments.add(new Fragment(fragment, dependency));
    return finishProjected(receive(dependency, fragment.getOutputSchemaList()), parts);
  }

  private static PlanNode partialAggregate(SelectParts parts) {
    final AggregateCollector agg = parts.aggregation();
    final List<OutputColumn> out = new ArrayList<>();
    for (int i = 0; i < agg.groupBy().size(); i++) {
      out.add(PlanNodes.column("G" + i, agg.groupBy().get(i).getValueType()));
    }
    for (int i = 0; i < agg.aggregates().size(); i++) {
      final Aggregate a = agg.aggregates().get(i);
      if (a.getKind() == AggregateKind.AGGREGATE_KIND_AVG) {
        final ValueType argType = a.getArgument().getValueType();
        out.add(PlanNodes.column("S" + i, TypeRules.isInteger(argType) || TypeRules.isNull(argType)
            ? ValueType.VALUE_TYPE_BIGINT : argType));
        out.add(PlanNodes.column("N" + i, ValueType.VALUE_TYPE_BIGINT));
      } else {
        out.add(PlanNodes.column("A" + i, a.getValueType()));
      }
    }
    final AggregateNode node = AggregateNode.newBuilder().setPhase(AggregatePhase.AGGREGATE_PHASE_PARTIAL)
        .addAllGroupBy(agg.groupBy()).addAllAggregates(agg.aggregates()).build();
    return PlanNodes.aggregate(parts.source(), node, out);
  }

  private static PlanNode mergeAggregate(PlanNode receive, SelectParts parts) {
    final AggregateCollector agg = parts.aggregation();
    final AggregateNode.Builder node = AggregateNode.newBuilder().setPhase(AggregatePhase.AGGREGATE_PHASE_MERGE);
    for (int i = 0; i < agg.groupBy().size(); i++) {
      node.addGroupBy(Exprs.column(i, agg.groupBy().get(i).getValueType()));
    }
    for (Aggregate a : agg.aggregates()) {
      node.addAggregates(a.toBuilder().clearArgument());
    }
    if (parts.having() != null) {
      node.setHaving(parts.having());
    }
    return PlanNodes.aggregate(receive, node.build(), aggregateOutput(agg));
  }
}
