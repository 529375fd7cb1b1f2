package org.partita.server.planner;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import org.partita.proto.Aggregate;
import org.partita.proto.AggregateNode;
import org.partita.proto.AggregatePhase;
import org.partita.proto.Expression;
import org.partita.proto.PlanNode;
import org.partita.server.catalog.ColumnDef;
import org.partita.server.catalog.TableDef;
import org.partita.server.catalog.ViewDef;

/**
 * A view of a partitioned table whose GROUP BY lacks the partitioning column
 * holds, on each partition, that partition's share of each group. Read across
 * partitions, its rows are merged per group at the coordinator — counts and
 * sums added, MIN and MAX re-applied — so a query sees one row per group, as
 * if the view were not partitioned. Filters on aggregate columns wait until
 * after the merge; filters on group columns run on each partition.
 */
final class ViewMerge {
  private ViewMerge() {}

  /** Whether reading {@code table} across partitions needs a merge. */
  static boolean needed(TableDef table, Set<String> partitionedViews) {
    return table.isView() && partitionedViews.contains(table.name());
  }

  static boolean readsOnlyGroupColumns(Expression e, FromTable t) {
    final BitSet cols = Exprs.columnsUsed(e);
    return cols.isEmpty() || cols.length() <= t.offset() + t.table().view().groupBy().size();
  }

  /** MERGE aggregation of the view's rows from every partition. */
  static PlanNode merge(PlanNode rows, TableDef view) {
    final ViewDef def = view.view();
    final int groups = def.groupBy().size();
    final AggregateNode.Builder node = AggregateNode.newBuilder().setPhase(AggregatePhase.AGGREGATE_PHASE_MERGE);
    final List<ColumnDef> columns = view.columns();
    for (int i = 0; i < groups; i++) {
      node.addGroupBy(Exprs.column(i, columns.get(i).type()));
    }
    final List<Aggregate> aggregates = new ArrayList<>();
    for (int i = 0; i < def.aggregates().size(); i++) {
      aggregates.add(Aggregate.newBuilder()
          .setKind(def.aggregates().get(i).kind())
          .setValueType(columns.get(groups + i).type())
          .build());
    }
    node.addAllAggregates(aggregates);
    return PlanNodes.aggregate(rows, node.build(), PlanNodes.tableColumns(view));
  }
}
