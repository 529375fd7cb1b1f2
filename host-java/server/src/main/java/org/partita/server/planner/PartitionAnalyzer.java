package org.partita.server.planner;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.partita.proto.Expression;
import org.partita.proto.ExpressionKind;
import org.partita.server.catalog.Schema;
import org.partita.server.catalog.TableDef;

/**
 * Decides where a query's FROM/WHERE part can run. Partitioned tables whose
 * partitioning columns are equated (in WHERE or ON) are co-located: their
 * matching rows live on the same partition. When all of them are co-located
 * and an equality fixes the partitioning value to a constant or parameter,
 * the query runs on one partition.
 */
final class PartitionAnalyzer {
  /**
   * @param partitioned the FROM tables that are partitioned
   * @param colocated whether all of them join on their partitioning columns
   * @param key the constant or parameter fixing their partition, or null
   */
  record Result(List<FromTable> partitioned, boolean colocated, Expression key) {
    boolean touchesPartitions() {
      return !partitioned.isEmpty();
    }
  }

  private PartitionAnalyzer() {}

  /** Position of the partitioning column in a table or view, or -1 when it has none. */
  static int partitionColumn(Schema schema, TableDef table) {
    if (!table.isView()) {
      return table.partitionColumn();
    }
    final TableDef source = schema.table(table.view().sourceTable()).orElse(null);
    if (source == null || source.isReplicated()) {
      return -1;
    }
    return table.view().groupBy().indexOf(source.partitionColumn());
  }

  static Result analyze(Schema schema, List<FromTable> tables, List<Expression> where) {
    final List<FromTable> partitioned = new ArrayList<>();
    final Map<Integer, Integer> parent = new HashMap<>();
    for (FromTable t : tables) {
      if (schema.isPartitioned(t.table())) {
        partitioned.add(t);
        final int pc = partitionColumn(schema, t.table());
        if (pc >= 0) {
          parent.put(t.offset() + pc, t.offset() + pc);
        }
      }
    }
    if (partitioned.isEmpty()) {
      return new Result(partitioned, true, null);
    }
    final List<Expression> equalities = new ArrayList<>(where);
    tables.forEach(t -> equalities.addAll(t.on()));
    for (Expression e : equalities) {
      if (isColumnEquality(e) && parent.containsKey(col(e, 0)) && parent.containsKey(col(e, 1))) {
        parent.put(find(parent, col(e, 0)), find(parent, col(e, 1)));
      }
    }
    final boolean allHaveColumns = partitioned.stream()
        .allMatch(t -> partitionColumn(schema, t.table()) >= 0);
    // A view without the partitioning column needs its rows merged (ViewMerge), never co-location.
    boolean colocated = partitioned.size() == 1 && partitionColumn(schema, partitioned.get(0).table()) >= 0;
    if (!colocated && allHaveColumns) {
      final int root = find(parent, parent.keySet().iterator().next());
      colocated = parent.keySet().stream().allMatch(c -> find(parent, c) == root);
    }
    Expression key = null;
    if (colocated && allHaveColumns) {
      for (Expression e : where) {
        final Expression k = fixedKey(e, parent);
        if (k != null) {
          key = k;
          break;
        }
      }
    }
    return new Result(partitioned, colocated, key);
  }

  /** Names of the views whose rows must be merged across partitions (see ViewMerge). */
  static java.util.Set<String> viewsToMerge(Schema schema, List<FromTable> tables) {
    final java.util.Set<String> views = new java.util.HashSet<>();
    for (FromTable t : tables) {
      if (t.table().isView() && schema.isPartitioned(t.table()) && partitionColumn(schema, t.table()) < 0) {
        views.add(t.table().name());
      }
    }
    return views;
  }

  private static boolean isColumnEquality(Expression e) {
    return e.getKind() == ExpressionKind.EXPRESSION_KIND_EQUAL
        && e.getChildren(0).getKind() == ExpressionKind.EXPRESSION_KIND_COLUMN
        && e.getChildren(1).getKind() == ExpressionKind.EXPRESSION_KIND_COLUMN;
  }

  private static int col(Expression e, int side) {
    return e.getChildren(side).getColumnIndex();
  }

  /** For {@code partitionColumn = constant-or-parameter}, the constant or parameter. */
  private static Expression fixedKey(Expression e, Map<Integer, Integer> partitionColumns) {
    if (e.getKind() != ExpressionKind.EXPRESSION_KIND_EQUAL) {
      return null;
    }
    for (int side = 0; side < 2; side++) {
      final Expression c = e.getChildren(side);
      final Expression k = e.getChildren(1 - side);
      final boolean simpleKey = k.getKind() == ExpressionKind.EXPRESSION_KIND_PARAMETER
          || (Exprs.isConstant(k) && !Exprs.isNullConstant(k));
      if (c.getKind() == ExpressionKind.EXPRESSION_KIND_COLUMN && partitionColumns.containsKey(c.getColumnIndex())
          && simpleKey) {
        return k;
      }
    }
    return null;
  }

  private static int find(Map<Integer, Integer> parent, int x) {
    int root = x;
    while (parent.get(root) != root) {
      root = parent.get(root);
    }
    parent.put(x, root);
    return root;
  }
}
