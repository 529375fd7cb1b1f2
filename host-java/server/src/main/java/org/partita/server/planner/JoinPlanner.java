package org.partita.server.planner;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import org.partita.proto.Expression;
import org.partita.proto.ExpressionKind;
import org.partita.proto.HashJoinNode;
import org.partita.proto.IndexNestLoopJoinNode;
import org.partita.proto.JoinType;
import org.partita.proto.NestLoopJoinNode;
import org.partita.proto.PlanNode;
import org.partita.proto.PlanNodeKind;
import org.partita.proto.ScanDirection;
import org.partita.proto.ValueType;

/**
 * Builds the FROM/WHERE part of a query: a left-deep join tree whose output
 * row is every table's columns in FROM order.
 *
 * <p>The tables are joined in the order {@link JoinOrder} chooses (by
 * estimated cardinalities; the textual order is not binding for inner joins).
 * The tree's rows hold the tables in that order; a projection on top puts
 * the columns back in FROM order when the two differ. Each WHERE conjunct is
 * applied as soon as every table it reads is joined: inside that table's scan
 * when it reads only that table, as a join condition otherwise; a conjunct on
 * the right side of a LEFT JOIN filters after that join.
 *
 * <p>How each table joins the tree: an index join when an equality between
 * its indexed columns and the tree's row serves an index; else a hash join
 * when some equality has one side over the table alone and the other over the
 * tree alone (the table's rows are the build side); else a nested loop (a
 * cross product only when no conjunct links the table).
 */
final class JoinPlanner {
  static PlanNode plan(List<FromTable> tables, List<Expression> where, TableStatistics stats)
      throws PlanningException {
    return new JoinPlanner(Set.of(), Set.of(), new ArrayList<>(), stats).build(tables, where);
  }

  /**
   * The join tree for a coordinator: each table of {@code remote} is read by a
   * fragment on every partition (its own conditions applied there, added to
   * {@code fragments}) and reaches the join through a RECEIVE node.
   */
  static PlanNode planWithRemoteTables(List<FromTable> tables, List<Expression> where, Set<FromTable> remote,
      Set<String> partitionedViews, List<Fragment> fragments, TableStatistics stats) throws PlanningException {
    return new JoinPlanner(remote, partitionedViews, fragments, stats).build(tables, where);
  }

  private final Set<FromTable> remote;
  private final Set<String> partitionedViews;
  private final List<Fragment> fragments;
  private final TableStatistics stats;

  private JoinPlanner(Set<FromTable> remote, Set<String> partitionedViews, List<Fragment> fragments,
      TableStatistics stats) {
    this.remote = remote;
    this.partitionedViews = partitionedViews;
    this.fragments = fragments;
    this.stats = stats;
  }

  private PlanNode build(List<FromTable> original, List<Expression> where) {
    final List<Expression> pool = new ArrayList<>(where);
    // Inner joins before the first LEFT JOIN may be reordered: their ON
    // conjuncts join the WHERE pool, to be applied wherever they can be.
    final List<FromTable> tables = new ArrayList<>(original.size());
    boolean outerSeen = false;
    for (FromTable t : original) {
      outerSeen |= t.leftJoin();
      if (outerSeen) {
        tables.add(t);
      } else {
        pool.addAll(t.on());
        tables.add(t.withJoin(false, List.of()));
      }
    }
    final List<FromTable> order = JoinOrder.choose(tables, pool, stats);
    final int[] layout = new int[tables.get(tables.size() - 1).end()];
    Arrays.fill(layout, -1);
    PlanNode tree = null;
    int width = 0;
    boolean reordered = false;
    for (int i = 0; i < order.size(); i++) {
      final FromTable g = order.get(i);
      reordered |= g != tables.get(i);
      for (int c = 0; c < g.width(); c++) {
        layout[g.offset() + c] = width + c;
      }
      final FromTable t = new FromTable(g.qualifier(), g.table(), width, g.leftJoin(), remap(g.on(), layout),
          g.derived());
      final List<Expression> eligible = remap(takeEligible(pool, g, layout, tree == null), layout);
      final boolean isRemote = remote.contains(original.get(tables.indexOf(g)));
      if (tree == null) {
        tree = access(t, isRemote, eligible);
      } else if (t.leftJoin()) {
        tree = PlanNodes.filter(join(tree, t, isRemote, t.on(), JoinType.JOIN_TYPE_LEFT), Exprs.and(eligible));
      } else {
        final List<Expression> conds = new ArrayList<>(t.on());
        conds.addAll(eligible);
        tree = join(tree, t, isRemote, conds, JoinType.JOIN_TYPE_INNER);
      }
      width += g.width();
    }
    if (!pool.isEmpty()) {
      throw new IllegalStateException("conjuncts left after the join tree: " + pool);
    }
    return reordered ? restoreFromOrder(tree, layout) : tree;
  }

  /**
   * Removes and returns the pool conjuncts that can be applied once {@code t}
   * is joined: those reading only joined tables and {@code t} (and, after the
   * first table, reading {@code t}; the rest were applied earlier).
   */
  private static List<Expression> takeEligible(List<Expression> pool, FromTable t, int[] layout, boolean first) {
    final List<Expression> taken = new ArrayList<>();
    for (Expression c : new ArrayList<>(pool)) {
      if ((first || t.touches(c)) && allPlaced(Exprs.columnsUsed(c), layout)) {
        taken.add(c);
        pool.remove(c);
      }
    }
    return taken;
  }

  private static boolean allPlaced(BitSet cols, int[] layout) {
    for (int i = cols.nextSetBit(0); i >= 0; i = cols.nextSetBit(i + 1)) {
      if (i >= layout.length || layout[i] < 0) {
        return false;
      }
    }
    return true;
  }

  /** Conjuncts over FROM-order positions rewritten over the tree's row. */
  private static List<Expression> remap(List<Expression> conjuncts, int[] layout) {
    final List<Expression> out = new ArrayList<>(conjuncts.size());
    for (Expression c : conjuncts) {
      out.add(Exprs.remapColumns(c, i -> layout[i]));
    }
    return out;
  }

  /** A projection from the tree's row (tables in join order) to FROM order. */
  private static PlanNode restoreFromOrder(PlanNode tree, int[] layout) {
    final List<Expression> columns = new ArrayList<>(layout.length);
    final List<String> names = new ArrayList<>(layout.length);
    for (int i = 0; i < layout.length; i++) {
      final org.partita.proto.OutputColumn c = tree.getOutputSchema(layout[i]);
      columns.add(Exprs.column(layout[i], c.getType()));
      names.add(c.getName());
    }
    return PlanNodes.projection(tree, columns, names);
  }

  /** A scan of the table with the given conjuncts (over the tree's row), or a RECEIVE of one. */
  private PlanNode access(FromTable t, boolean isRemote, List<Expression> conjuncts) {
    if (t.derived() != null) {
      return PlanNodes.filter(t.derived(), local(Exprs.and(conjuncts), t));
    }
    if (isRemote) {
      final boolean merge = ViewMerge.needed(t.table(), partitionedViews);
      final List<Expression> own = new ArrayList<>();
      final List<Expression> rest = new ArrayList<>();
      for (Expression c : conjuncts) {
        // Subqueries and outer references stay with the statement's plan; a merged
        // view's aggregate columns are filtered only after the merge.
        final boolean pushable = !Exprs.needsStatementContext(c) && (Exprs.columnsUsed(c).isEmpty()
            || (t.ownsAll(c) && (!merge || ViewMerge.readsOnlyGroupColumns(c, t))));
        (pushable ? own : rest).add(c);
      }
      final int dependency = fragments.size() + 1;
      fragments.add(new Fragment(scan(t, own), dependency));
      PlanNode rows = SelectAssembler.receive(dependency, PlanNodes.tableColumns(t.table()));
      if (merge) {
        rows = ViewMerge.merge(rows, t.table());
      }
      return PlanNodes.filter(rows, local(Exprs.and(rest), t));
    }
    return scan(t, conjuncts);
  }

  private static PlanNode scan(FromTable t, List<Expression> conjuncts) {
    final AccessPathChooser.Choice choice = AccessPathChooser.choose(t.table(), t.offset(), conjuncts);
    final Expression residual = local(Exprs.and(choice.residual()), t);
    if (choice.indexScan() == null) {
      return AccessPathChooser.seqScan(t.table(), residual);
    }
    return AccessPathChooser.indexScan(t.table(), choice.indexScan(), residual, ScanDirection.SCAN_DIRECTION_FORWARD);
  }

  private PlanNode join(PlanNode outer, FromTable t, boolean isRemote, List<Expression> conds, JoinType type) {
    final List<Expression> innerOnly = new ArrayList<>();
    final List<Expression> crossing = new ArrayList<>();
    for (Expression c : conds) {
      (t.ownsAll(c) ? innerOnly : crossing).add(c);
    }
    final List<Expression> all = new ArrayList<>(innerOnly);
    all.addAll(crossing);
    final AccessPathChooser.Choice indexed = AccessPathChooser.choose(t.table(), t.offset(), all);
    if (t.derived() == null && indexed.indexScan() != null && indexed.readsOuterRow() && !isRemote) {
      return indexJoin(outer, t, indexed, type);
    }
    final PlanNode inner = access(t, isRemote, innerOnly);
    final List<Expression> keys = new ArrayList<>();
    for (Expression c : crossing) {
      if (hashKeyPair(c, t) != null) {
        keys.add(c);
      }
    }
    if (!keys.isEmpty()) {
      crossing.removeAll(keys);
      return hashJoin(outer, inner, t, keys, Exprs.and(crossing), type);
    }
    final NestLoopJoinNode.Builder node = NestLoopJoinNode.newBuilder().setJoinType(type);
    final Expression predicate = Exprs.and(crossing);
    if (predicate != null) {
      node.setPredicate(predicate);
    }
    return PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_NEST_LOOP_JOIN)
        .addChildren(outer)
        .addChildren(inner)
        .addAllOutputSchema(outer.getOutputSchemaList())
        .addAllOutputSchema(inner.getOutputSchemaList())
        .setNestLoopJoin(node)
        .build();
  }

  /**
   * For an equality {@code outerSide = innerSide} usable as hash keys, the pair
   * (outer key over the tree's row, inner key over the table's own row); null
   * otherwise. One side must read only the table, the other only the tree
   * (each at least one column), neither may need the statement's context, and
   * the two types must hash alike (the same type, or both numbers).
   */
  private static Expression[] hashKeyPair(Expression c, FromTable t) {
    if (c.getKind() != ExpressionKind.EXPRESSION_KIND_EQUAL || Exprs.needsStatementContext(c)) {
      return null;
    }
    for (int side = 0; side < 2; side++) {
      final Expression in = c.getChildren(side);
      final Expression out = c.getChildren(1 - side);
      final BitSet outCols = Exprs.columnsUsed(out);
      if (t.ownsAll(in) && !outCols.isEmpty() && outCols.length() <= t.offset() && hashCompatible(in, out)) {
        return new Expression[] {out, local(in, t)};
      }
    }
    return null;
  }

  private static boolean hashCompatible(Expression a, Expression b) {
    return a.getValueType() == b.getValueType() || (isNumber(a.getValueType()) && isNumber(b.getValueType()));
  }

  private static boolean isNumber(ValueType type) {
    return switch (type) {
      case VALUE_TYPE_TINYINT, VALUE_TYPE_SMALLINT, VALUE_TYPE_INTEGER, VALUE_TYPE_BIGINT, VALUE_TYPE_FLOAT,
          VALUE_TYPE_DECIMAL -> true;
      default -> false;
    };
  }

  private static PlanNode hashJoin(PlanNode outer, PlanNode inner, FromTable t, List<Expression> keys,
      Expression residual, JoinType type) {
    final HashJoinNode.Builder node = HashJoinNode.newBuilder().setJoinType(type);
    for (Expression k : keys) {
      final Expression[] pair = hashKeyPair(k, t);
      node.addOuterKeys(pair[0]).addInnerKeys(pair[1]);
    }
    if (residual != null) {
      node.setPredicate(residual);
    }
    return PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_HASH_JOIN)
        .addChildren(outer)
        .addChildren(inner)
        .addAllOutputSchema(outer.getOutputSchemaList())
        .addAllOutputSchema(inner.getOutputSchemaList())
        .setHashJoin(node)
        .build();
  }

  private static PlanNode indexJoin(PlanNode outer, FromTable t, AccessPathChooser.Choice choice, JoinType type) {
    final List<Expression> innerResidual = new ArrayList<>();
    final List<Expression> joinResidual = new ArrayList<>();
    for (Expression c : choice.residual()) {
      (t.ownsAll(c) ? innerResidual : joinResidual).add(c);
    }
    final Expression local = local(Exprs.and(innerResidual), t);
    if (local != null) {
      choice.indexScan().setPredicate(local);
    }
    final IndexNestLoopJoinNode.Builder node =
        IndexNestLoopJoinNode.newBuilder().setJoinType(type).setInner(choice.indexScan());
    final Expression predicate = Exprs.and(joinResidual);
    if (predicate != null) {
      node.setPredicate(predicate);
    }
    return PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_INDEX_NEST_LOOP_JOIN)
        .addChildren(outer)
        .addAllOutputSchema(outer.getOutputSchemaList())
        .addAllOutputSchema(PlanNodes.tableColumns(t.table()))
        .setIndexNestLoopJoin(node)
        .build();
  }

  /** A predicate over the tree's row rewritten over the table's own row. */
  private static Expression local(Expression predicate, FromTable t) {
    return predicate == null ? null : Exprs.shiftColumns(predicate, -t.offset());
  }
}
