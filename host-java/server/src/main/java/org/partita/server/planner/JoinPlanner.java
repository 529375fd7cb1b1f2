package org.partita.server.planner;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import org.partita.proto.Expression;
import org.partita.proto.IndexNestLoopJoinNode;
import org.partita.proto.JoinType;
import org.partita.proto.NestLoopJoinNode;
import org.partita.proto.PlanNode;
import org.partita.proto.PlanNodeKind;
import org.partita.proto.ScanDirection;

/**
 * Builds the FROM/WHERE part of a query: a left-deep join tree in FROM order
 * whose output row is every table's columns in FROM order. Each WHERE conjunct
 * is applied as early as its columns allow: inside a table's scan when it
 * reads only that table, as a join condition otherwise; a conjunct on the
 * right side of a LEFT JOIN filters after that join. An equality between an
 * inner table's indexed columns and the outer row makes an index join.
 */
final class JoinPlanner {
  static PlanNode plan(List<FromTable> tables, List<Expression> where) throws PlanningException {
    return new JoinPlanner(Set.of(), Set.of(), new ArrayList<>()).build(tables, where);
  }

  /**
   * The join tree for a coordinator: each table of {@code remote} is read by a
   * fragment on every partition (its own conditions applied there, added to
   * {@code fragments}) and reaches the join through a RECEIVE node.
   */
  static PlanNode planWithRemoteTables(List<FromTable> tables, List<Expression> where, Set<FromTable> remote,
      Set<String> partitionedViews, List<Fragment> fragments) throws PlanningException {
    return new JoinPlanner(remote, partitionedViews, fragments).build(tables, where);
  }

  private final Set<FromTable> remote;
  private final Set<String> partitionedViews;
  private final List<Fragment> fragments;

  private JoinPlanner(Set<FromTable> remote, Set<String> partitionedViews, List<Fragment> fragments) {
    this.remote = remote;
    this.partitionedViews = partitionedViews;
    this.fragments = fragments;
  }

  private PlanNode build(List<FromTable> tables, List<Expression> where) {
    final List<Expression> pool = new ArrayList<>(where);
    PlanNode tree = null;
    for (FromTable t : tables) {
      final List<Expression> eligible = takeEligible(pool, t, tree == null);
      if (tree == null) {
        tree = access(t, eligible);
      } else if (t.leftJoin()) {
        tree = PlanNodes.filter(join(tree, t, t.on(), JoinType.JOIN_TYPE_LEFT), Exprs.and(eligible));
      } else {
        final List<Expression> conds = new ArrayList<>(t.on());
        conds.addAll(eligible);
        tree = join(tree, t, conds, JoinType.JOIN_TYPE_INNER);
      }
    }
    if (!pool.isEmpty()) {
      throw new IllegalStateException("conjuncts left after the join tree: " + pool);
    }
    return tree;
  }

  /** Removes and returns the pool conjuncts that can be applied once {@code t} is joined. */
  private static List<Expression> takeEligible(List<Expression> pool, FromTable t, boolean first) {
    final List<Expression> taken = new ArrayList<>();
    for (Expression c : new ArrayList<>(pool)) {
      final BitSet cols = Exprs.columnsUsed(c);
      if ((first || t.touches(c)) && cols.length() <= t.end()) {
        taken.add(c);
        pool.remove(c);
      }
    }
    return taken;
  }

  /** A scan of the table with the given conjuncts (over the global row), or a RECEIVE of one. */
  private PlanNode access(FromTable t, List<Expression> conjuncts) {
    if (t.derived() != null) {
      return PlanNodes.filter(t.derived(), local(Exprs.and(conjuncts), t));
    }
    if (remote.contains(t)) {
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

  private PlanNode join(PlanNode outer, FromTable t, List<Expression> conds, JoinType type) {
    final List<Expression> innerOnly = new ArrayList<>();
    final List<Expression> crossing = new ArrayList<>();
    for (Expression c : conds) {
      (t.ownsAll(c) ? innerOnly : crossing).add(c);
    }
    final List<Expression> all = new ArrayList<>(innerOnly);
    all.addAll(crossing);
    final AccessPathChooser.Choice indexed = AccessPathChooser.choose(t.table(), t.offset(), all);
    if (indexed.indexScan() != null && indexed.readsOuterRow() && !remote.contains(t)) {
      return indexJoin(outer, t, indexed, type);
    }
    final PlanNode inner = access(t, innerOnly);
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

  /** A predicate over the global row rewritten over the table's own row. */
  private static Expression local(Expression predicate, FromTable t) {
    return predicate == null ? null : Exprs.shiftColumns(predicate, -t.offset());
  }
}
