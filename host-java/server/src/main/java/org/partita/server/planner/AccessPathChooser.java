package org.partita.server.planner;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.partita.proto.Expression;
import org.partita.proto.ExpressionKind;
import org.partita.proto.IndexBound;
import org.partita.proto.IndexScanNode;
import org.partita.proto.PlanNode;
import org.partita.proto.PlanNodeKind;
import org.partita.proto.ScanDirection;
import org.partita.proto.SeqScanNode;
import org.partita.server.catalog.IndexDef;
import org.partita.server.catalog.TableDef;

/**
 * Chooses how to read one table of a FROM clause: an index lookup when
 * equality predicates cover a hash index or a prefix of an ordered one, an
 * ordered-index range scan when a range predicate bounds the next column, a
 * sequential scan otherwise. Predicates are over the global row; the table's
 * columns start at {@code offset}, and key expressions may read columns
 * before it (the outer row of an index join) but never the table itself.
 */
final class AccessPathChooser {
  /** The chosen access: an index scan node (or null for a sequential scan) and what it leaves. */
  record Choice(IndexScanNode.Builder indexScan, List<Expression> used, List<Expression> residual,
                boolean readsOuterRow) {}

  private AccessPathChooser() {}

  /** Equality and range facts about single columns of the table. */
  private static final class Facts {
    final Map<Integer, Expression> equal = new HashMap<>();
    final Map<Integer, Expression> equalSource = new HashMap<>();
    final Map<Integer, Bound> lower = new HashMap<>();
    final Map<Integer, Bound> upper = new HashMap<>();
  }

  private record Bound(Expression key, boolean inclusive, Expression source) {}

  static Choice choose(TableDef table, int offset, List<Expression> conjuncts) {
    final Facts facts = new Facts();
    final int end = offset + table.columns().size();
    for (Expression c : conjuncts) {
      collectFacts(c, offset, end, facts);
    }
    IndexDef best = null;
    int bestScore = 0;
    for (IndexDef index : table.indexes()) {
      final int score = score(index, facts);
      if (score > bestScore) {
        best = index;
        bestScore = score;
      }
    }
    if (best == null) {
      return new Choice(null, List.of(), conjuncts, false);
    }
    return build(table, best, facts, conjuncts);
  }

  private static int score(IndexDef index, Facts facts) {
    final List<Integer> cols = index.columns();
    if (index.isHash()) {
      return facts.equal.keySet().containsAll(cols) ? 1000 + (index.unique() ? 500 : 0) + cols.size() : 0;
    }
    int prefix = 0;
    while (prefix < cols.size() && facts.equal.containsKey(cols.get(prefix))) {
      prefix++;
    }
    if (prefix == cols.size()) {
      return 900 + (index.unique() ? 500 : 0) + prefix;
    }
    final int next = cols.get(prefix);
    final boolean ranged = facts.lower.containsKey(next) || facts.upper.containsKey(next);
    if (prefix == 0 && !ranged) {
      return 0;
    }
    return 100 + prefix * 10 + (ranged ? 5 : 0);
  }

  private static Choice build(TableDef table, IndexDef index, Facts facts, List<Expression> conjuncts) {
    final IndexScanNode.Builder scan = IndexScanNode.newBuilder().setTable(table.name()).setIndex(index.name());
    final List<Expression> used = new ArrayList<>();
    final List<Integer> cols = index.columns();
    int prefix = 0;
    final List<Expression> key = new ArrayList<>();
    while (prefix < cols.size() && facts.equal.containsKey(cols.get(prefix))) {
      key.add(facts.equal.get(cols.get(prefix)));
      used.add(facts.equalSource.get(cols.get(prefix)));
      prefix++;
    }
    if (prefix == cols.size() || index.isHash()) {
      scan.addAllLookupKey(key);
    } else {
      final int next = cols.get(prefix);
      final Bound lower = facts.lower.get(next);
      final Bound upper = facts.upper.get(next);
      if (lower != null || !key.isEmpty()) {
        final IndexBound.Builder b = IndexBound.newBuilder().addAllKey(key).setInclusive(lower == null || lower.inclusive);
        if (lower != null) {
          b.addKey(lower.key);
          if (enforcedWhole(lower, upper)) {
            used.add(lower.source);
          }
        }
        scan.setLower(b);
      }
      if (upper != null || !key.isEmpty()) {
        final IndexBound.Builder b = IndexBound.newBuilder().addAllKey(key).setInclusive(upper == null || upper.inclusive);
        if (upper != null) {
          b.addKey(upper.key);
          if (!used.contains(upper.source) && enforcedWhole(upper, lower)) {
            used.add(upper.source);
          }
        }
        scan.setUpper(b);
      }
    }
    final List<Expression> residual = new ArrayList<>();
    for (Expression c : conjuncts) {
      if (!used.contains(c)) {
        residual.add(c);
      }
    }
    boolean outer = false;
    for (Expression u : used) {
      outer |= !Exprs.isRowIndependent(u);
    }
    return new Choice(scan, used, residual, outer);
  }

  /** Records {@code column op key} facts where key does not read the table. */
  private static void collectFacts(Expression c, int offset, int end, Facts facts) {
    if (c.getKind() == ExpressionKind.EXPRESSION_KIND_BETWEEN) {
      final Expression value = c.getChildren(0);
      final int col = tableColumn(value, offset, end);
      if (col >= 0 && keyOk(c.getChildren(1), offset) && keyOk(c.getChildren(2), offset)) {
        facts.lower.putIfAbsent(col, new Bound(c.getChildren(1), true, c));
        facts.upper.putIfAbsent(col, new Bound(c.getChildren(2), true, c));
      }
      return;
    }
    if (c.getChildrenCount() != 2) {
      return;
    }
    ExpressionKind kind = c.getKind();
    Expression left = c.getChildren(0);
    Expression right = c.getChildren(1);
    if (tableColumn(left, offset, end) < 0) {
      final Expression t = left;
      left = right;
      right = t;
      kind = flip(kind);
    }
    final int col = tableColumn(left, offset, end);
    if (col < 0 || kind == null || !keyOk(right, offset)) {
      return;
    }
    switch (kind) {
      case EXPRESSION_KIND_EQUAL -> {
        if (!facts.equal.containsKey(col)) {
          facts.equal.put(col, right);
          facts.equalSource.put(col, c);
        }
      }
      case EXPRESSION_KIND_GREATER -> facts.lower.putIfAbsent(col, new Bound(right, false, c));
      case EXPRESSION_KIND_GREATER_EQUAL -> facts.lower.putIfAbsent(col, new Bound(right, true, c));
      case EXPRESSION_KIND_LESS -> facts.upper.putIfAbsent(col, new Bound(right, false, c));
      case EXPRESSION_KIND_LESS_EQUAL -> facts.upper.putIfAbsent(col, new Bound(right, true, c));
      default -> { }
    }
  }

  private static ExpressionKind flip(ExpressionKind kind) {
    return switch (kind) {
      case EXPRESSION_KIND_EQUAL -> kind;
      case EXPRESSION_KIND_LESS -> ExpressionKind.EXPRESSION_KIND_GREATER;
      case EXPRESSION_KIND_LESS_EQUAL -> ExpressionKind.EXPRESSION_KIND_GREATER_EQUAL;
      case EXPRESSION_KIND_GREATER -> ExpressionKind.EXPRESSION_KIND_LESS;
      case EXPRESSION_KIND_GREATER_EQUAL -> ExpressionKind.EXPRESSION_KIND_LESS_EQUAL;
      default -> null;
    };
  }

  /** The table-local column a bare column reference names, or -1. */
  private static int tableColumn(Expression e, int offset, int end) {
    if (e.getKind() != ExpressionKind.EXPRESSION_KIND_COLUMN) {
      return -1;
    }
    final int c = e.getColumnIndex();
    return c >= offset && c < end ? c - offset : -1;
  }

  /** A key may read parameters, constants and outer-row columns (before offset). */
  private static boolean keyOk(Expression key, int offset) {
    final BitSet cols = Exprs.columnsUsed(key);
    return cols.isEmpty() || cols.length() <= offset;
  }

  /** A sequential scan of the table with a predicate over its own row. */
  static PlanNode seqScan(TableDef table, Expression localPredicate) {
    final SeqScanNode.Builder scan = SeqScanNode.newBuilder().setTable(table.name());
    if (localPredicate != null) {
      scan.setPredicate(localPredicate);
    }
    return PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_SEQ_SCAN)
        .addAllOutputSchema(PlanNodes.tableColumns(table))
        .setSeqScan(scan)
        .build();
  }

  static PlanNode indexScan(TableDef table, IndexScanNode.Builder scan, Expression localPredicate,
                            ScanDirection direction) {
    if (localPredicate != null) {
      scan.setPredicate(localPredicate);
    }
    scan.setDirection(direction);
    return PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_INDEX_SCAN)
        .addAllOutputSchema(PlanNodes.tableColumns(table))
        .setIndexScan(scan)
        .build();
  }

  /**
   * Whether the index range enforces all of {@code bound}'s conjunct: a
   * BETWEEN gives both bounds, and is enforced only when the range uses both
   * (a tighter-looking bound of another conjunct may have taken the other
   * side); otherwise it stays a residual filter.
   */
  private static boolean enforcedWhole(Bound bound, Bound other) {
    return bound.source.getKind() != ExpressionKind.EXPRESSION_KIND_BETWEEN
        || (other != null && other.source == bound.source);
  }
}
