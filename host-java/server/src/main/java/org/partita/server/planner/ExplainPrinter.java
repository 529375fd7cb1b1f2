package org.partita.server.planner;

import java.util.stream.Collectors;
import org.partita.proto.Expression;
import org.partita.proto.IndexBound;
import org.partita.proto.IndexScanNode;
import org.partita.proto.PlanNode;

/** Renders plans as indented text, one node per line (partita compile --explain, @Explain). */
public final class ExplainPrinter {
  private ExplainPrinter() {}

  public static String explain(PlannedStatement statement) {
    final StringBuilder out = new StringBuilder();
    out.append(statement.distribution().name().replace('_', ' '));
    if (statement.partitionParameter() >= 0) {
      out.append(" (partition of parameter ").append(statement.partitionParameter() + 1).append(')');
    } else if (statement.partitionValue() != null) {
      out.append(" (partition of ").append(ExpressionPrinter.value(statement.partitionValue())).append(')');
    }
    out.append('\n');
    for (Fragment f : statement.fragments()) {
      out.append("  on every partition, dependency ").append(f.dependencyId()).append(":\n");
      print(f.plan(), 2, out);
    }
    if (!statement.fragments().isEmpty()) {
      out.append("  coordinator:\n");
    }
    print(statement.plan(), statement.fragments().isEmpty() ? 1 : 2, out);
    return out.toString();
  }

  public static void print(PlanNode node, int depth, StringBuilder out) {
    out.append("  ".repeat(depth)).append(describe(node)).append('\n');
    node.getChildrenList().forEach(child -> print(child, depth + 1, out));
  }

  private static String describe(PlanNode n) {
    return switch (n.getKind()) {
      case PLAN_NODE_KIND_SEQ_SCAN -> "SEQ SCAN " + n.getSeqScan().getTable()
          + filter(n.getSeqScan().hasPredicate(), n.getSeqScan().getPredicate());
      case PLAN_NODE_KIND_INDEX_SCAN -> indexScan(n.getIndexScan());
      case PLAN_NODE_KIND_FILTER -> "FILTER " + ExpressionPrinter.print(n.getFilterPredicate());
      case PLAN_NODE_KIND_PROJECTION -> "PROJECT " + n.getProjection().getColumnsList().stream()
          .map(ExpressionPrinter::print).collect(Collectors.joining(", "));
      case PLAN_NODE_KIND_NEST_LOOP_JOIN -> "NESTED LOOP " + n.getNestLoopJoin().getJoinType().name()
          .replace("JOIN_TYPE_", "") + " JOIN" + filter(n.getNestLoopJoin().hasPredicate(),
          n.getNestLoopJoin().getPredicate());
      case PLAN_NODE_KIND_HASH_JOIN -> "HASH " + n.getHashJoin().getJoinType().name().replace("JOIN_TYPE_", "")
          + " JOIN on (" + n.getHashJoin().getOuterKeysList().stream().map(ExpressionPrinter::print)
          .collect(Collectors.joining(", ")) + ") = inner (" + n.getHashJoin().getInnerKeysList().stream()
          .map(ExpressionPrinter::print).collect(Collectors.joining(", ")) + ")"
          + filter(n.getHashJoin().hasPredicate(), n.getHashJoin().getPredicate());
      case PLAN_NODE_KIND_INDEX_NEST_LOOP_JOIN -> "INDEX " + n.getIndexNestLoopJoin().getJoinType().name()
          .replace("JOIN_TYPE_", "") + " JOIN with " + indexScan(n.getIndexNestLoopJoin().getInner())
          + filter(n.getIndexNestLoopJoin().hasPredicate(), n.getIndexNestLoopJoin().getPredicate());
      case PLAN_NODE_KIND_AGGREGATE -> "AGGREGATE " + n.getAggregate().getPhase().name().replace("AGGREGATE_PHASE_", "")
          + " group by [" + n.getAggregate().getGroupByList().stream().map(ExpressionPrinter::print)
          .collect(Collectors.joining(", ")) + "] " + n.getAggregate().getAggregatesList().stream()
          .map(a -> a.getKind().name().replace("AGGREGATE_KIND_", "") + "(" + (a.hasArgument()
              ? ExpressionPrinter.print(a.getArgument()) : "") + ")").collect(Collectors.joining(", "))
          + filter(n.getAggregate().hasHaving(), n.getAggregate().getHaving());
      case PLAN_NODE_KIND_SORT -> "SORT " + n.getSort().getKeysList().stream()
          .map(k -> ExpressionPrinter.print(k.getExpression()) + (k.getDescending() ? " DESC" : ""))
          .collect(Collectors.joining(", "));
      case PLAN_NODE_KIND_LIMIT -> "LIMIT" + (n.getLimit().hasLimit() ? " " + ExpressionPrinter.print(n.getLimit().getLimit())
          : "") + (n.getLimit().hasOffset() ? " OFFSET " + ExpressionPrinter.print(n.getLimit().getOffset()) : "");
      case PLAN_NODE_KIND_DISTINCT -> "DISTINCT";
      case PLAN_NODE_KIND_INSERT -> (n.getInsert().getUpsert() ? "UPSERT " : "INSERT ") + n.getInsert().getTable();
      case PLAN_NODE_KIND_UPDATE -> "UPDATE " + n.getUpdate().getTable();
      case PLAN_NODE_KIND_DELETE -> "DELETE " + n.getDelete().getTable();
      case PLAN_NODE_KIND_VALUES -> "VALUES " + n.getValues().getRowsCount() + " row(s)";
      case PLAN_NODE_KIND_RECEIVE -> "RECEIVE dependency " + n.getReceive().getDependencyId();
      default -> n.getKind().name();
    };
  }

  private static String indexScan(IndexScanNode s) {
    final StringBuilder b = new StringBuilder("INDEX SCAN ").append(s.getTable()).append(" using ").append(s.getIndex());
    if (s.getLookupKeyCount() > 0) {
      b.append(" key (").append(s.getLookupKeyList().stream().map(ExpressionPrinter::print)
          .collect(Collectors.joining(", "))).append(')');
    }
    if (s.hasLower()) {
      b.append(" from ").append(bound(s.getLower()));
    }
    if (s.hasUpper()) {
      b.append(" to ").append(bound(s.getUpper()));
    }
    if (s.getDirection() == org.partita.proto.ScanDirection.SCAN_DIRECTION_BACKWARD) {
      b.append(" backward");
    }
    return b + filter(s.hasPredicate(), s.getPredicate());
  }

  private static String bound(IndexBound b) {
    return (b.getInclusive() ? "[" : "(") + b.getKeyList().stream().map(ExpressionPrinter::print)
        .collect(Collectors.joining(", ")) + (b.getInclusive() ? "]" : ")");
  }

  private static String filter(boolean present, Expression e) {
    return present ? " where " + ExpressionPrinter.print(e) : "";
  }
}
