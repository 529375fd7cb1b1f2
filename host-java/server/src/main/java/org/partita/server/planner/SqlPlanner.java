package org.partita.server.planner;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.upsert.Upsert;
import org.partita.proto.Aggregate;
import org.partita.proto.AggregateKind;
import org.partita.proto.AggregateNode;
import org.partita.proto.AggregatePhase;
import org.partita.proto.Expression;
import org.partita.proto.ExpressionKind;
import org.partita.proto.PlanNode;
import org.partita.proto.ValueType;
import org.partita.server.catalog.Schema;
import org.partita.server.planner.PlannedStatement.Distribution;

/**
 * Plans one SQL statement (SELECT, INSERT, UPSERT, UPDATE, DELETE) against a
 * schema: binds names and types, infers parameter types, chooses indexes and
 * decides where the statement runs (see {@link PlannedStatement}).
 *
 * <p>Not thread-safe; cheap to create per statement.
 */
public final class SqlPlanner {
  private final Schema schema;
  private final TableStatistics statistics;

  /** A planner without row counts (statements compiled ahead of time). */
  public SqlPlanner(Schema schema) {
    this(schema, TableStatistics.UNKNOWN);
  }

  /** A planner ordering joins by {@code statistics} (ad-hoc SQL, planned when it runs). */
  public SqlPlanner(Schema schema, TableStatistics statistics) {
    this.schema = schema;
    this.statistics = statistics;
  }

  /**
   * Parses SQL text; a syntax error names the line, column and token.
   *
   * <p>The parser's simple mode comes first: its "complex parsing" (needed by
   * a few constructs) backtracks exponentially on nested parentheses — tens
   * of seconds for a WHERE clause ten levels deep — so it is only the
   * fallback when the simple mode rejects the text, and bounded in time
   * ({@link SqlParser}).
   */
  public static Statement parse(String sql) throws PlanningException {
    final String text = ParserWorkarounds.rewrite(sql);
    try {
      return SqlParser.parse(text);
    } catch (ParseException e) {
      final Token token = e.currentToken == null ? null : e.currentToken.next;
      if (token == null) {
        throw new PlanningException("syntax error in: " + sql);
      }
      throw new SqlSyntaxException("syntax error at line " + token.beginLine + ", column " + token.beginColumn
          + " near '" + token.image + "'", token.beginLine, token.beginColumn, token.image, e);
    } catch (RuntimeException | Error e) {
      throw new PlanningException("cannot parse: " + sql + " (" + e.getMessage() + ")", e);
    }
  }

  /**
   * Plans {@code sql}. In a single-partition procedure
   * ({@code singlePartitionProcedure}), a statement that needs every
   * partition is an error.
   */
  public PlannedStatement plan(String sql, boolean singlePartitionProcedure) throws PlanningException {
    final PlannedStatement planned;
    try {
      planned = plan(sql, parse(sql));
    } catch (RuntimeException e) {
      // A planner bug must not take the server down: the caller gets an error
      // naming the statement, and the log keeps the stack.
      java.util.logging.Logger.getLogger(SqlPlanner.class.getName())
          .log(java.util.logging.Level.WARNING, "planner failed on: " + sql, e);
      throw new PlanningException("internal error while planning (" + e + "): " + sql, e);
    }
    if (singlePartitionProcedure && (planned.distribution() == Distribution.EVERY_PARTITION
        || planned.distribution() == Distribution.REPLICATED_WRITE
        || planned.distribution() == Distribution.ROUTED_INSERT)) {
      throw new PlanningException(singlePartitionExplanation(planned));
    }
    return planned;
  }

  private static String singlePartitionExplanation(PlannedStatement planned) {
    if (planned.distribution() == Distribution.REPLICATED_WRITE) {
      return "a single-partition procedure cannot write a replicated table (every partition holds a copy): "
          + planned.sql() + "; make the procedure multi-partition";
    }
    return "statement needs every partition, but the procedure is single-partition: " + planned.sql()
        + "; fix each partitioned table's partitioning column with '= ?' in WHERE, or make the procedure"
        + " multi-partition";
  }

  PlannedStatement plan(String sql, Statement statement) throws PlanningException {
    final ParameterTypes parameters = new ParameterTypes();
    final PlannedStatement untyped;
    if (statement instanceof ParenthesedSelect p && p.getOrderByElements() == null && p.getLimit() == null
        && p.getOffset() == null && p.getWithItemsList() == null) {
      return plan(sql, p.getSelect());
    }
    if (statement instanceof PlainSelect select) {
      untyped = planSelect(sql, select, parameters);
    } else if (statement instanceof SetOperationList list && list.getWithItemsList() == null) {
      untyped = planSetOperation(sql, list, parameters);
    } else if (statement instanceof Select) {
      throw new PlanningException("WITH and this form of parenthesized query are not supported yet: " + sql);
    } else if (statement instanceof Insert insert) {
      untyped = planWrite(sql, new DmlPlanner(schema, parameters).insert(insert, false));
    } else if (statement instanceof Upsert upsert) {
      untyped = planWrite(sql, new DmlPlanner(schema, parameters).insert(UpsertAdapter.toInsert(upsert), true));
    } else if (statement instanceof Update update) {
      untyped = planWrite(sql, new DmlPlanner(schema, parameters).update(update));
    } else if (statement instanceof Delete delete) {
      untyped = planWrite(sql, new DmlPlanner(schema, parameters).delete(delete));
    } else {
      throw new PlanningException("not a query or DML statement: " + sql);
    }
    return withParameterTypes(untyped, parameters.resolved());
  }

  private static PlannedStatement withParameterTypes(PlannedStatement p, List<ValueType> types) {
    final List<Fragment> fragments = new ArrayList<>();
    for (Fragment f : p.fragments()) {
      fragments.add(new Fragment(ParameterRetyper.retype(f.plan(), types), f.dependencyId()));
    }
    return new PlannedStatement(p.sql(), p.distribution(), ParameterRetyper.retype(p.plan(), types), fragments,
        types, p.readOnly(), p.partitionParameter(), p.partitionValue());
  }

  /** A set operation runs in one place: anywhere over replicated tables, else on the coordinator. */
  private PlannedStatement planSetOperation(String sql, SetOperationList list, ParameterTypes parameters)
      throws PlanningException {
    final SubqueryContext local = new SubqueryContext(schema, false, statistics);
    final PlanNode plan = new SetOperationPlanner(schema, parameters, local).plan(list);
    if (!local.needsRemote()) {
      return statement(sql, Distribution.ANY_PARTITION, plan, List.of(), true, null);
    }
    final SubqueryContext remote = new SubqueryContext(schema, true, statistics);
    final PlanNode coordinator = new SetOperationPlanner(schema, parameters, remote).plan(list);
    return statement(sql, Distribution.EVERY_PARTITION, coordinator, remote.fragments(), true, null);
  }

  private PlannedStatement planSelect(String sql, PlainSelect select, ParameterTypes parameters)
      throws PlanningException {
    final SubqueryContext subqueries = new SubqueryContext(schema, false, statistics);
    final SelectParts parts = new SelectPlanner(schema, parameters, subqueries, null).plan(select);
    if (!subqueries.needsRemote()) {
      return planSelect(sql, parts);
    }
    final SubqueryContext remote = new SubqueryContext(schema, true, statistics);
    final SelectParts remoteParts = new SelectPlanner(schema, parameters, remote, null).plan(select);
    final java.util.Set<FromTable> partitioned = remote.partitionedTables(remoteParts.tables());
    final PlanNode source = partitioned.isEmpty() ? remoteParts.source()
        : remote.remoteSource(remoteParts, partitioned);
    return statement(sql, Distribution.EVERY_PARTITION, SelectAssembler.local(remoteParts.withSource(source)),
        remote.fragments(), true, null);
  }

  private PlannedStatement planSelect(String sql, SelectParts parts) throws PlanningException {
    final PartitionAnalyzer.Result where = PartitionAnalyzer.analyze(schema, parts.tables(), parts.where());
    if (!where.touchesPartitions()) {
      return statement(sql, Distribution.ANY_PARTITION, SelectAssembler.local(parts), List.of(), true, null);
    }
    if (where.key() != null) {
      return statement(sql, Distribution.SINGLE_PARTITION, SelectAssembler.local(parts), List.of(), true, where.key());
    }
    final List<Fragment> fragments = new ArrayList<>();
    if (where.colocated()) {
      final PlanNode coordinator = SelectAssembler.distributed(parts, fragments);
      return statement(sql, Distribution.EVERY_PARTITION, coordinator, fragments, true, null);
    }
    final PlanNode source = JoinPlanner.planWithRemoteTables(parts.tables(), parts.where(),
        java.util.Set.copyOf(where.partitioned()), PartitionAnalyzer.viewsToMerge(schema, parts.tables()), fragments,
        statistics);
    return statement(sql, Distribution.EVERY_PARTITION, SelectAssembler.local(parts.withSource(source)), fragments,
        true, null);
  }

  private PlannedStatement planWrite(String sql, DmlPlanner.Write write) throws PlanningException {
    if (write.selectSource() != null) {
      return planInsertSelect(sql, write);
    }
    if (write.table().isReplicated()) {
      return statement(sql, Distribution.REPLICATED_WRITE, write.plan(), List.of(), false, null);
    }
    if (!write.partitionKeys().isEmpty()) {
      final Expression key = insertKey(write);
      if (key == null) {
        return new PlannedStatement(sql, Distribution.ROUTED_INSERT, write.plan(), List.of(), List.of(), false,
            write.table().partitionColumn(), null);
      }
      return statement(sql, Distribution.SINGLE_PARTITION, write.plan(), List.of(), false, key);
    }
    final FromTable from = new FromTable(write.table().name(), write.table(), 0, false, List.of());
    final PartitionAnalyzer.Result where = PartitionAnalyzer.analyze(schema, List.of(from), write.where());
    if (where.key() != null) {
      return statement(sql, Distribution.SINGLE_PARTITION, write.plan(), List.of(), false, where.key());
    }
    final Fragment fragment = new Fragment(write.plan(), 1);
    return statement(sql, Distribution.EVERY_PARTITION, sumOfModified(fragment), List.of(fragment), false, null);
  }

  /**
   * INSERT ... SELECT runs where its query's rows are and their target is:
   * into a replicated table from replicated tables (every partition computes
   * the same rows), or into a partitioned table from one partitioned table
   * whose partitioning column feeds the target's (each partition inserts its
   * own rows, which hash to it again).
   */
  private PlannedStatement planInsertSelect(String sql, DmlPlanner.Write write) throws PlanningException {
    final SelectParts parts = write.selectSource().parts();
    final List<FromTable> partitioned = new ArrayList<>();
    for (FromTable t : parts.tables()) {
      if (schema.isPartitioned(t.table())) {
        partitioned.add(t);
      }
    }
    if (write.table().isReplicated()) {
      if (!partitioned.isEmpty()) {
        throw new PlanningException("INSERT into replicated table " + write.table().name()
            + " ... SELECT from partitioned tables is not supported: " + sql);
      }
      return statement(sql, Distribution.REPLICATED_WRITE, write.plan(), List.of(), false, null);
    }
    if (!feedsPartitioningColumn(write, partitioned)) {
      throw new PlanningException("INSERT into partitioned table " + write.table().name() + " ... SELECT must read"
          + " one partitioned table, without aggregation or LIMIT, whose partitioning column gives the target's: "
          + sql);
    }
    final Fragment fragment = new Fragment(write.plan(), 1);
    return statement(sql, Distribution.EVERY_PARTITION, sumOfModified(fragment), List.of(fragment), false, null);
  }

  private boolean feedsPartitioningColumn(DmlPlanner.Write write, List<FromTable> partitioned) {
    final SelectParts parts = write.selectSource().parts();
    final int position = write.selectSource().partitionValue();
    if (partitioned.size() != 1 || position < 0 || parts.aggregated() || parts.limit() != null
        || parts.offset() != null) {
      return false;
    }
    final FromTable source = partitioned.get(0);
    final Expression value = parts.projections().get(position);
    final ValueType target = write.table().columns().get(write.table().partitionColumn()).type();
    return value.getKind() == ExpressionKind.EXPRESSION_KIND_COLUMN
        && value.getColumnIndex() == source.offset() + source.table().partitionColumn()
        && value.getValueType() == target;
  }

  /**
   * The partitioning value shared by all of an INSERT's rows, or null when
   * the rows have different ones (they are then routed row by row). Each must
   * be a constant or a parameter. A NULL value is allowed: NULL belongs to
   * partition 0 (the partition hash specification, PartitionHash).
   */
  private static Expression insertKey(DmlPlanner.Write write) throws PlanningException {
    final Expression key = write.partitionKeys().get(0);
    final String column = write.table().columns().get(write.table().partitionColumn()).name();
    for (Expression k : write.partitionKeys()) {
      if (k.getKind() != ExpressionKind.EXPRESSION_KIND_PARAMETER && !Exprs.isConstant(k)) {
        throw new PlanningException("the partitioning column " + write.table().name() + "." + column
            + " must be given as a constant or a parameter");
      }
    }
    for (Expression k : write.partitionKeys()) {
      if (!k.equals(key)) {
        return null;  // rows of several partitions: routed row by row (ROUTED_INSERT)
      }
    }
    return key;
  }

  private static PlanNode sumOfModified(Fragment fragment) {
    final PlanNode receive = SelectAssembler.receive(fragment.dependencyId(), fragment.plan().getOutputSchemaList());
    final AggregateNode sum = AggregateNode.newBuilder()
        .setPhase(AggregatePhase.AGGREGATE_PHASE_COMPLETE)
        .addAggregates(Aggregate.newBuilder()
            .setKind(AggregateKind.AGGREGATE_KIND_SUM)
            .setArgument(Exprs.column(0, ValueType.VALUE_TYPE_BIGINT))
            .setValueType(ValueType.VALUE_TYPE_BIGINT))
        .build();
    return PlanNodes.aggregate(receive, sum,
        List.of(PlanNodes.column(DmlPlanner.MODIFIED, ValueType.VALUE_TYPE_BIGINT)));
  }

  private static PlannedStatement statement(String sql, Distribution distribution, PlanNode plan,
      List<Fragment> fragments, boolean readOnly, Expression key) {
    int parameter = PlannedStatement.NO_PARAMETER;
    org.partita.proto.Value value = null;
    if (key != null && key.getKind() == ExpressionKind.EXPRESSION_KIND_PARAMETER) {
      parameter = key.getParameterIndex();
    } else if (key != null) {
      value = key.getConstant();
    }
    return new PlannedStatement(sql, distribution, plan, fragments, List.of(), readOnly, parameter, value);
  }
}
