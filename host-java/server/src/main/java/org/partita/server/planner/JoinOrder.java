package org.partita.server.planner;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.partita.proto.Expression;
import org.partita.proto.ExpressionKind;
import org.partita.server.catalog.IndexDef;

/**
 * Chooses the order in which the tables of a FROM clause are joined, by
 * estimated cardinalities rather than their textual order.
 *
 * <p>Rules:
 * <ul>
 *   <li>Only the tables before the first LEFT JOIN move: inner and cross joins
 *       commute, outer joins do not, so a LEFT JOIN's table and every table
 *       after it keep their textual place.</li>
 *   <li>A table's estimate is its row count (the engine's statistics, else
 *       {@link #DEFAULT_ROWS}) times the selectivity of the WHERE/ON
 *       conjuncts that read only it: equality with a constant on a unique key
 *       leaves one row, other equalities {@value #EQUALITY_SELECTIVITY}, ranges
 *       and IN lists {@value #RANGE_SELECTIVITY}, anything else
 *       {@value #OTHER_SELECTIVITY}.</li>
 *   <li>Each way to add a table to the joined set has a cost: an index join
 *       (an equality with the joined tables serves one of its indexes) costs
 *       the joined rows; a hash join (another equality) the joined rows plus
 *       {@value #HASH_BUILD_FACTOR} times the table's (the table is the build
 *       side, so big tables are better probed than built); a nested loop their product. An equality join yields the
 *       larger of the two estimates (the joined rows when it fixes a unique
 *       key), a nested loop the product.</li>
 *   <li>From every possible first table, the next table is, greedily, the
 *       cheapest of those an equality links to the joined set; when none is
 *       linked by an equality, the cheapest linked by another predicate; a
 *       cross product only when nothing links the rest. The first table whose
 *       greedy order costs least wins; ties keep the textual order.</li>
 * </ul>
 */
final class JoinOrder {
  static final long DEFAULT_ROWS = 1000;
  static final double EQUALITY_SELECTIVITY = 0.1;
  static final double RANGE_SELECTIVITY = 0.3;
  static final double OTHER_SELECTIVITY = 0.5;
  /** What keeping a row in a hash table costs against probing with one: time and memory. */
  static final double HASH_BUILD_FACTOR = 4;

  private JoinOrder() {}

  /** How a table is linked to the joined set. */
  private enum Link { NONE, OTHER, EQUALITY, INDEX }

  /** The tables in join order; {@code conjuncts} are WHERE and inner-join ON conjuncts (global positions). */
  static List<FromTable> choose(List<FromTable> tables, List<Expression> conjuncts, TableStatistics stats) {
    int movable = 0;
    while (movable < tables.size() && (movable == 0 || !tables.get(movable).leftJoin())) {
      movable++;
    }
    final List<FromTable> candidates = tables.subList(0, movable);
    final double[] estimate = new double[movable];
    for (int i = 0; i < movable; i++) {
      estimate[i] = estimate(tables.get(i), conjuncts, stats);
    }
    List<FromTable> best = null;
    double bestCost = Double.POSITIVE_INFINITY;
    for (int first = 0; first < movable; first++) {
      final List<FromTable> order = new ArrayList<>();
      final double cost = greedy(candidates, first, estimate, conjuncts, order);
      if (cost < bestCost) {
        best = order;
        bestCost = cost;
      }
    }
    final List<FromTable> order = new ArrayList<>(best == null ? candidates : best);
    order.addAll(tables.subList(movable, tables.size()));
    return order;
  }

  /** Fills {@code order} greedily from {@code tables[first]}; returns its cost. */
  private static double greedy(List<FromTable> tables, int first, double[] estimate, List<Expression> conjuncts,
      List<FromTable> order) {
    final List<FromTable> remaining = new ArrayList<>(tables);
    order.add(remaining.remove(first));
    double rows = estimate[first];
    double cost = rows;
    while (!remaining.isEmpty()) {
      FromTable next = null;
      Link nextLink = Link.NONE;
      double nextCost = 0;
      for (FromTable t : remaining) {
        final Link link = link(order, t, conjuncts);
        final double c = stepCost(rows, estimate[tables.indexOf(t)], link);
        final boolean linkedBetter = rank(link) > rank(nextLink);
        if (next == null || linkedBetter || (rank(link) == rank(nextLink) && c < nextCost)) {
          next = t;
          nextLink = link;
          nextCost = c;
        }
      }
      cost += nextCost;
      rows = stepRows(rows, estimate[tables.indexOf(next)], nextLink, uniqueKeyLinked(order, next, conjuncts));
      order.add(next);
      remaining.remove(next);
    }
    return cost;
  }

  /** Equality links (index or hash) rank above other predicates, which rank above none. */
  private static int rank(Link link) {
    return link == Link.INDEX ? 2 : link.ordinal();
  }

  private static double stepCost(double rows, double tableRows, Link link) {
    return switch (link) {
      case INDEX -> rows;
      case EQUALITY -> rows + HASH_BUILD_FACTOR * tableRows;
      default -> rows * tableRows;
    };
  }

  private static double stepRows(double rows, double tableRows, Link link, boolean uniqueKey) {
    if (link == Link.INDEX || link == Link.EQUALITY) {
      return uniqueKey ? rows : Math.max(rows, tableRows);
    }
    return link == Link.OTHER ? rows * tableRows * OTHER_SELECTIVITY : rows * tableRows;
  }

  /** How {@code t} is linked to the tables of {@code joined}. */
  private static Link link(List<FromTable> joined, FromTable t, List<Expression> conjuncts) {
    Link best = Link.NONE;
    final BitSet equated = equatedColumns(joined, t, conjuncts, true);
    final BitSet linked = equatedColumns(joined, t, conjuncts, false);
    for (Expression c : conjuncts) {
      if (!t.touches(c) || t.ownsAll(c) || !readsOnly(c, joined, t)) {
        continue;
      }
      final Link l = c.getKind() == ExpressionKind.EXPRESSION_KIND_EQUAL ? Link.EQUALITY : Link.OTHER;
      best = l.ordinal() > best.ordinal() ? l : best;
    }
    if (best == Link.EQUALITY && t.derived() == null) {
      for (IndexDef index : t.table().indexes()) {
        final boolean serves = index.isHash() ? index.columns().stream().allMatch(equated::get)
            : equated.get(index.columns().get(0));
        if (serves && index.columns().stream().anyMatch(linked::get)) {
          return Link.INDEX;
        }
      }
    }
    return best;
  }

  /** Whether the equalities with {@code joined} (and constants) fix every column of a unique index of {@code t}. */
  private static boolean uniqueKeyLinked(List<FromTable> joined, FromTable t, List<Expression> conjuncts) {
    final BitSet equated = equatedColumns(joined, t, conjuncts, true);
    return t.table().indexes().stream().anyMatch(i -> i.unique() && i.columns().stream().allMatch(equated::get));
  }

  /**
   * The columns of {@code t} (table positions) that an equality sets to a value
   * read from {@code joined}, or (with {@code constants}) to a constant.
   */
  private static BitSet equatedColumns(List<FromTable> joined, FromTable t, List<Expression> conjuncts,
      boolean constants) {
    final BitSet equated = new BitSet();
    for (Expression c : conjuncts) {
      if (c.getKind() != ExpressionKind.EXPRESSION_KIND_EQUAL || !readsOnly(c, joined, t)) {
        continue;
      }
      for (int side = 0; side < 2; side++) {
        final Expression col = c.getChildren(side);
        final Expression other = c.getChildren(1 - side);
        if (col.getKind() == ExpressionKind.EXPRESSION_KIND_COLUMN && t.ownsAll(col) && !t.touches(other)
            && (constants || !Exprs.isRowIndependent(other))) {
          equated.set(col.getColumnIndex() - t.offset());
        }
      }
    }
    return equated;
  }

  /** Whether every column {@code c} reads belongs to {@code joined} or {@code t}. */
  private static boolean readsOnly(Expression c, List<FromTable> joined, FromTable t) {
    final BitSet cols = Exprs.columnsUsed(c);
    for (int i = cols.nextSetBit(0); i >= 0; i = cols.nextSetBit(i + 1)) {
      final int col = i;
      if (!(col >= t.offset() && col < t.end()) && joined.stream().noneMatch(j -> col >= j.offset() && col < j.end())) {
        return false;
      }
    }
    return true;
  }

  /** Estimated rows of {@code t} after the conjuncts that read only it. */
  static double estimate(FromTable t, List<Expression> conjuncts, TableStatistics stats) {
    final long counted = t.derived() == null ? stats.rowCount(t.table().name()) : -1;
    double rows = counted >= 0 ? counted : DEFAULT_ROWS;
    for (Expression c : conjuncts) {
      if (t.ownsAll(c)) {
        rows *= selectivity(t, c);
      }
    }
    for (Expression c : t.on()) {
      if (t.ownsAll(c)) {
        rows *= selectivity(t, c);
      }
    }
    return uniqueKeyFixed(t, conjuncts) ? Math.min(rows, 1.0) : rows;
  }

  private static double selectivity(FromTable t, Expression c) {
    return switch (c.getKind()) {
      case EXPRESSION_KIND_EQUAL -> EQUALITY_SELECTIVITY;
      case EXPRESSION_KIND_LESS, EXPRESSION_KIND_LESS_EQUAL, EXPRESSION_KIND_GREATER,
          EXPRESSION_KIND_GREATER_EQUAL, EXPRESSION_KIND_BETWEEN, EXPRESSION_KIND_IN_LIST -> RANGE_SELECTIVITY;
      default -> OTHER_SELECTIVITY;
    };
  }

  /** Whether equalities with row-independent values fix every column of a unique index of {@code t}. */
  private static boolean uniqueKeyFixed(FromTable t, List<Expression> conjuncts) {
    final BitSet fixed = new BitSet();
    for (Expression c : conjuncts) {
      if (c.getKind() != ExpressionKind.EXPRESSION_KIND_EQUAL || !t.ownsAll(c)) {
        continue;
      }
      for (int side = 0; side < 2; side++) {
        final Expression col = c.getChildren(side);
        if (col.getKind() == ExpressionKind.EXPRESSION_KIND_COLUMN
            && Exprs.isRowIndependent(c.getChildren(1 - side))) {
          fixed.set(col.getColumnIndex() - t.offset());
        }
      }
    }
    for (IndexDef index : t.table().indexes()) {
      if (index.unique() && index.columns().stream().allMatch(fixed::get)) {
        return true;
      }
    }
    return false;
  }
}
