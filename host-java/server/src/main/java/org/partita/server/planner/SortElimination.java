package org.partita.server.planner;

import java.util.ArrayList;
import java.util.List;
import org.partita.proto.Expression;
import org.partita.proto.ExpressionKind;
import org.partita.proto.IndexScanNode;
import org.partita.proto.PlanNode;
import org.partita.proto.PlanNodeKind;
import org.partita.proto.ScanDirection;
import org.partita.proto.SortKey;
import org.partita.server.catalog.IndexDef;
import org.partita.server.catalog.TableDef;

/**
 * Serves ORDER BY from an ordered index instead of sorting: when a query
 * reads one table without aggregation or DISTINCT, and its sort keys are that
 * table's columns in the order of an ordered index (after the columns its
 * lookup fixes), all ascending or all descending with SQL's default NULL
 * placement, the scan walks the index forward or backward and the sort goes.
 */
final class SortElimination {
  private SortElimination() {}

  /** The parts with an index-ordered source and no sort keys, or {@code parts} unchanged. */
  static SelectParts apply(SelectParts parts) {
    if (parts.sortKeys().isEmpty() || parts.aggregated() || parts.distinct() || parts.tables().size() != 1) {
      return parts;
    }
    final TableDef table = parts.tables().get(0).table();
    final List<Integer> keyColumns = new ArrayList<>();
    Boolean descending = null;
    for (SortKey key : parts.sortKeys()) {
      final Expression projected = parts.projections().get(key.getExpression().getColumnIndex());
      if (projected.getKind() != ExpressionKind.EXPRESSION_KIND_COLUMN || key.getNullsLast() != key.getDescending()
          || (descending != null && descending != key.getDescending())) {
        return parts;
      }
      descending = key.getDescending();
      keyColumns.add(projected.getColumnIndex());
    }
    final PlanNode ordered = orderedSource(parts.source(), table, keyColumns,
        descending ? ScanDirection.SCAN_DIRECTION_BACKWARD : ScanDirection.SCAN_DIRECTION_FORWARD);
    if (ordered == null) {
      return parts;
    }
    return new SelectParts(parts.tables(), ordered, parts.where(), null, parts.having(), parts.projections(),
        parts.names(), parts.visible(), false, List.of(), parts.limit(), parts.offset());
  }

  private static PlanNode orderedSource(PlanNode source, TableDef table, List<Integer> keyColumns,
      ScanDirection direction) {
    if (source.getKind() == PlanNodeKind.PLAN_NODE_KIND_INDEX_SCAN) {
      final IndexScanNode scan = source.getIndexScan();
      final IndexDef index = index(table, scan.getIndex());
      if (index == null || index.isHash()) {
        return null;
      }
      final int fixed = fixedColumns(scan);
      for (int start = 0; start <= fixed; start++) {
        if (follows(index.columns(), start, keyColumns)) {
          return source.toBuilder().setIndexScan(scan.toBuilder().setDirection(direction)).build();
        }
      }
      return null;
    }
    if (source.getKind() != PlanNodeKind.PLAN_NODE_KIND_SEQ_SCAN) {
      return null;
    }
    for (IndexDef index : table.indexes()) {
      if (!index.isHash() && follows(index.columns(), 0, keyColumns)) {
        final IndexScanNode.Builder scan = IndexScanNode.newBuilder().setTable(table.name()).setIndex(index.name());
        final Expression predicate = source.getSeqScan().hasPredicate() ? source.getSeqScan().getPredicate() : null;
        return AccessPathChooser.indexScan(table, scan, predicate, direction);
      }
    }
    return null;
  }

  /** How many leading index columns the scan fixes to one value (rows come ordered by the rest). */
  private static int fixedColumns(IndexScanNode scan) {
    if (scan.getLookupKeyCount() > 0) {
      return scan.getLookupKeyCount();
    }
    final boolean pointRange = scan.hasLower() && scan.hasUpper() && scan.getLower().getInclusive()
        && scan.getUpper().getInclusive() && scan.getLower().getKeyList().equals(scan.getUpper().getKeyList());
    final int keys = Math.max(scan.getLower().getKeyCount(), scan.getUpper().getKeyCount());
    return pointRange ? keys : Math.max(keys - 1, 0);
  }

  /** Whether {@code keys} are the index columns from position {@code start} on. */
  private static boolean follows(List<Integer> indexColumns, int start, List<Integer> keys) {
    if (start + keys.size() > indexColumns.size()) {
      return false;
    }
    for (int i = 0; i < keys.size(); i++) {
      if (!indexColumns.get(start + i).equals(keys.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static IndexDef index(TableDef table, String name) {
    return table.indexes().stream().filter(i -> i.name().equals(name)).findFirst().orElse(null);
  }
}
