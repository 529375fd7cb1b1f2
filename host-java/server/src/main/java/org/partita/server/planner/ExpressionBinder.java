package org.partita.server.planner;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.ExtractExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.HexValue;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.Parenthesis;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.WhenClause;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Concat;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.Modulo;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.Select;
import org.partita.proto.Aggregate;
import org.partita.proto.AggregateKind;
import org.partita.proto.Expression;
import org.partita.proto.ExpressionKind;
import org.partita.proto.SubqueryKind;
import org.partita.proto.ValueType;

/**
 * Turns a parsed SQL expression into a typed plan expression over a
 * {@link Scope}. With an {@link AggregateCollector} it binds the expressions
 * that follow aggregation (select list, HAVING, ORDER BY): aggregate calls and
 * GROUP BY expressions become references into the aggregation's output, and a
 * bare column that is neither is an error.
 */
final class ExpressionBinder {
  private final Scope scope;
  private final ParameterTypes parameters;
  private final AggregateCollector aggregates;
  private final SubqueryContext subqueries;
  private final OuterReferences outer;

  /** A binder where subqueries are not allowed. */
  ExpressionBinder(Scope scope, ParameterTypes parameters, AggregateCollector aggregates) {
    this(scope, parameters, aggregates, null, null);
  }

  /**
   * A binder that plans subqueries through {@code subqueries} (null: they are
   * an error) and, inside a subquery, resolves names its scope lacks through
   * {@code outer} (null at the top level).
   */
  ExpressionBinder(Scope scope, ParameterTypes parameters, AggregateCollector aggregates,
      SubqueryContext subqueries, OuterReferences outer) {
    this.scope = scope;
    this.parameters = parameters;
    this.aggregates = aggregates;
    this.subqueries = subqueries;
    this.outer = outer;
  }

  /** A binder over the same scope and parameters, before aggregation. */
  ExpressionBinder inputBinder() {
    return aggregates == null ? this : new ExpressionBinder(scope, parameters, null, subqueries, outer);
  }

  ParameterTypes parameters() {
    return parameters;
  }

  SubqueryContext subqueries() {
    return subqueries;
  }

  Expression bind(net.sf.jsqlparser.expression.Expression e) throws PlanningException {
    return bind(e, ValueType.VALUE_TYPE_UNSPECIFIED);
  }

  /** Binds a condition (WHERE, ON, HAVING, WHEN) and checks that it is one. */
  Expression bindCondition(net.sf.jsqlparser.expression.Expression e, String clause) throws PlanningException {
    final Expression bound = bind(e);
    if (bound.getValueType() != ValueType.VALUE_TYPE_BOOLEAN && !TypeRules.isNull(bound.getValueType())) {
      throw new PlanningException(clause + " needs a condition, found " + TypeRules.name(bound.getValueType())
          + " expression " + e);
    }
    return bound;
  }

  /**
   * Binds {@code e}; {@code hint} is the type a parameter standing for the
   * whole expression should take (UNSPECIFIED when the context gives none).
   */
  Expression bind(net.sf.jsqlparser.expression.Expression e, ValueType hint) throws PlanningException {
    if (aggregates != null) {
      final Expression afterAggregation = bindAfterAggregation(e);
      if (afterAggregation != null) {
        return afterAggregation;
      }
    }
    if (e instanceof Parenthesis p) {
      return bind(p.getExpression(), hint);
    }
    if (e instanceof ParenthesedExpressionList<?> list && list.size() == 1) {
      return bind(list.get(0), hint);
    }
    if (e instanceof Column c) {
      return bindColumn(c);
    }
    if (e instanceof JdbcParameter p) {
      final int index = p.getIndex() - 1;
      parameters.note(index, hint);
      return Exprs.parameter(index, parameters.get(index));
    }
    final Expression literal = Literals.bind(e);
    if (literal != null) {
      return literal;
    }
    if (e instanceof SignedExpression s) {
      return bindSigned(s, hint);
    }
    if (e instanceof AndExpression a) {
      return logic(ExpressionKind.EXPRESSION_KIND_AND, a);
    }
    if (e instanceof OrExpression o) {
      return logic(ExpressionKind.EXPRESSION_KIND_OR, o);
    }
    if (e instanceof NotExpression n) {
      return not(bindCondition(n.getExpression(), "NOT"));
    }
    if (e instanceof Concat c) {
      final Expression left = bind(c.getLeftExpression(), ValueType.VALUE_TYPE_VARCHAR);
      final Expression right = bind(c.getRightExpression(), ValueType.VALUE_TYPE_VARCHAR);
      return function(org.partita.proto.Function.FUNCTION_CONCAT, ValueType.VALUE_TYPE_VARCHAR, List.of(left, right));
    }
    if (e instanceof BinaryExpression b) {
      final ExpressionKind arithmetic = arithmeticKind(b);
      if (arithmetic != null) {
        return arithmetic(arithmetic, b, hint);
      }
      final ExpressionKind comparison = comparisonKind(b);
      if (comparison != null) {
        return comparison(comparison, b.getLeftExpression(), b.getRightExpression());
      }
    }
    if (e instanceof IsNullExpression n) {
      return Exprs.op(
          n.isNot() ? ExpressionKind.EXPRESSION_KIND_IS_NOT_NULL : ExpressionKind.EXPRESSION_KIND_IS_NULL,
          ValueType.VALUE_TYPE_BOOLEAN,
          bind(n.getLeftExpression()));
    }
    if (e instanceof Between b) {
      return between(b);
    }
    if (e instanceof InExpression in) {
      return in(in);
    }
    if (e instanceof LikeExpression like) {
      return like(like);
    }
    if (e instanceof CaseExpression c) {
      return caseExpression(c, hint);
    }
    if (e instanceof CastExpression c) {
      return cast(c);
    }
    if (e instanceof Function f) {
      return FunctionBinder.bind(this, f, hint);
    }
    if (e instanceof ExtractExpression x) {
      return FunctionBinder.extract(this, x);
    }
    if (e instanceof TimeKeyExpression t) {
      return FunctionBinder.timeKey(t);
    }
    if (e instanceof Select select) {
      return SubqueryBinder.bind(this, select, SubqueryKind.SUBQUERY_KIND_SCALAR, null, hint);
    }
    if (e instanceof ExistsExpression exists) {
      final Expression bound = SubqueryBinder.bind(this, SubqueryBinder.select(exists.getRightExpression()),
          SubqueryKind.SUBQUERY_KIND_EXISTS, null, hint);
      return exists.isNot() ? not(bound) : bound;
    }
    throw new PlanningException("unsupported expression: " + e);
  }

  private Expression bindColumn(Column c) throws PlanningException {
    final String column = Names.normalize(c.getColumnName());
    final String qualifier = c.getTable() == null || c.getTable().getName() == null
        ? null : Names.normalize(c.getTable().getName());
    if (qualifier == null && (column.equals("TRUE") || column.equals("FALSE"))) {
      return Exprs.constant(Exprs.booleanValue(column.equals("TRUE")));
    }
    if (outer != null && !scope.canResolve(qualifier, column)) {
      return outer.resolve(c);
    }
    final int index = scope.resolve(qualifier, column);
    return Exprs.column(index, scope.get(index).type());
  }

  /** Aggregate calls and GROUP BY expressions; null for anything else. */
  private Expression bindAfterAggregation(net.sf.jsqlparser.expression.Expression e) throws PlanningException {
    if (e instanceof Function f && FunctionBinder.isAggregate(f)) {
      return aggregates.add(aggregate(f));
    }
    if (AggregateFinder.contains(e)) {
      return null;
    }
    final Expression input = inputBinder().bind(e);
    final Expression group = aggregates.groupColumn(input);
    if (group != null) {
      return group;
    }
    if (Exprs.isRowIndependent(input)) {
      return input;
    }
    if (e instanceof Column) {
      throw new PlanningException("column " + e + " must appear in GROUP BY or inside an aggregate function");
    }
    return null;
  }

  private Aggregate aggregate(Function f) throws PlanningException {
    final String name = f.getName().toUpperCase(Locale.ROOT);
    final ExpressionBinder input = inputBinder();
    if (FunctionBinder.isStar(f)) {
      if (!name.equals("COUNT")) {
        throw new PlanningException(name + "(*) is not an aggregate; only COUNT(*) is");
      }
      return Aggregate.newBuilder()
          .setKind(AggregateKind.AGGREGATE_KIND_COUNT_STAR)
          .setValueType(ValueType.VALUE_TYPE_BIGINT)
          .build();
    }
    if (f.getParameters() == null || f.getParameters().size() != 1) {
      throw new PlanningException(name + " takes one argument: " + f);
    }
    final net.sf.jsqlparser.expression.Expression argText = f.getParameters().get(0);
    if (AggregateFinder.contains(argText)) {
      throw new PlanningException("aggregate functions cannot be nested: " + f);
    }
    final Expression arg = input.bind(argText);
    final ValueType argType = arg.getValueType();
    final Aggregate.Builder aggregate = Aggregate.newBuilder().setArgument(arg);
    switch (name) {
      case "COUNT" -> aggregate
          .setKind(f.isDistinct() ? AggregateKind.AGGREGATE_KIND_COUNT_DISTINCT : AggregateKind.AGGREGATE_KIND_COUNT)
          .setValueType(ValueType.VALUE_TYPE_BIGINT);
      case "SUM" -> aggregate.setKind(f.isDistinct() ? AggregateKind.AGGREGATE_KIND_SUM_DISTINCT
          : AggregateKind.AGGREGATE_KIND_SUM).setValueType(TypeRules.sum(argType));
      case "AVG" -> aggregate.setKind(f.isDistinct() ? AggregateKind.AGGREGATE_KIND_AVG_DISTINCT
          : AggregateKind.AGGREGATE_KIND_AVG).setValueType(TypeRules.avg(argType));
      case "MIN" -> aggregate.setKind(AggregateKind.AGGREGATE_KIND_MIN).setValueType(argType);
      case "MAX" -> aggregate.setKind(AggregateKind.AGGREGATE_KIND_MAX).setValueType(argType);
      default -> throw new PlanningException("unknown aggregate function " + name);
    }
    if (TypeRules.isNull(argType) && !name.equals("COUNT")) {
      aggregate.setValueType(name.equals("AVG") ? ValueType.VALUE_TYPE_DECIMAL : ValueType.VALUE_TYPE_BIGINT);
    }
    return aggregate.build();
  }

  private Expression bindSigned(SignedExpression s, ValueType hint) throws PlanningException {
    final Expression inner = bind(s.getExpression(), hint);
    switch (s.getSign()) {
      case '+':
        return inner;
      case '-': {
        final Expression folded = Literals.negate(inner);
        if (folded != null) {
          return folded;
        }
        final ValueType type = TypeRules.arithmetic(inner.getValueType(), inner.getValueType(), "-");
        return Exprs.op(ExpressionKind.EXPRESSION_KIND_NEGATE, type, inner);
      }
      default:
        throw new PlanningException("unsupported operator " + s.getSign() + " in " + s);
    }
  }

  private Expression logic(ExpressionKind kind, BinaryExpression b) throws PlanningException {
    final String name = kind == ExpressionKind.EXPRESSION_KIND_AND ? "AND" : "OR";
    final List<Expression> children = new ArrayList<>();
    for (net.sf.jsqlparser.expression.Expression side : List.of(b.getLeftExpression(), b.getRightExpression())) {
      final Expression child = bindCondition(side, name);
      if (child.getKind() == kind) {
        children.addAll(child.getChildrenList());
      } else {
        children.add(child);
      }
    }
    return Exprs.op(kind, ValueType.VALUE_TYPE_BOOLEAN, children);
  }

  static Expression not(Expression e) {
    return Exprs.op(ExpressionKind.EXPRESSION_KIND_NOT, ValueType.VALUE_TYPE_BOOLEAN, e);
  }

  private static final java.util.Map<Class<?>, ExpressionKind> ARITHMETIC = java.util.Map.of(
      Addition.class, ExpressionKind.EXPRESSION_KIND_ADD,
      Subtraction.class, ExpressionKind.EXPRESSION_KIND_SUBTRACT,
      Multiplication.class, ExpressionKind.EXPRESSION_KIND_MULTIPLY,
      Division.class, ExpressionKind.EXPRESSION_KIND_DIVIDE,
      Modulo.class, ExpressionKind.EXPRESSION_KIND_MODULO);

  private static final java.util.Map<Class<?>, ExpressionKind> COMPARISON = java.util.Map.of(
      EqualsTo.class, ExpressionKind.EXPRESSION_KIND_EQUAL,
      NotEqualsTo.class, ExpressionKind.EXPRESSION_KIND_NOT_EQUAL,
      MinorThan.class, ExpressionKind.EXPRESSION_KIND_LESS,
      MinorThanEquals.class, ExpressionKind.EXPRESSION_KIND_LESS_EQUAL,
      GreaterThan.class, ExpressionKind.EXPRESSION_KIND_GREATER,
      GreaterThanEquals.class, ExpressionKind.EXPRESSION_KIND_GREATER_EQUAL);

  /** The arithmetic kind of {@code b}, or null when it is not + - * / %. */
  private static ExpressionKind arithmeticKind(BinaryExpression b) {
    return ARITHMETIC.get(b.getClass());
  }

  /** The comparison kind of {@code b}, or null when it is not one. */
  private static ExpressionKind comparisonKind(BinaryExpression b) {
    return COMPARISON.get(b.getClass());
  }

  private Expression arithmetic(ExpressionKind kind, BinaryExpression b, ValueType hint) throws PlanningException {
    final Expression[] sides = bindPair(b.getLeftExpression(), b.getRightExpression(), hint);
    final ValueType type = TypeRules.arithmetic(sides[0].getValueType(), sides[1].getValueType(), b.getStringExpression());
    final Expression folded = Literals.foldArithmetic(kind, type, sides[0], sides[1]);
    return folded != null ? folded : Exprs.op(kind, type, sides[0], sides[1]);
  }

  /**
   * Binds two operands so that a parameter on one side takes the other side's
   * type (and a hint when both are parameters).
   */
  Expression[] bindPair(net.sf.jsqlparser.expression.Expression left,
      net.sf.jsqlparser.expression.Expression right, ValueType hint) throws PlanningException {
    if (isParameter(left) && !isParameter(right)) {
      final Expression r = bind(right, hint);
      return new Expression[] {bind(left, r.getValueType()), r};
    }
    final Expression l = bind(left, hint);
    return new Expression[] {l, bind(right, TypeRules.isNull(l.getValueType()) ? hint : l.getValueType())};
  }

  static boolean isParameter(net.sf.jsqlparser.expression.Expression e) {
    if (e instanceof Parenthesis p) {
      return isParameter(p.getExpression());
    }
    return e instanceof JdbcParameter;
  }

  Expression comparison(ExpressionKind kind, net.sf.jsqlparser.expression.Expression left,
      net.sf.jsqlparser.expression.Expression right) throws PlanningException {
    final Expression[] sides = bindPair(left, right, ValueType.VALUE_TYPE_UNSPECIFIED);
    final Expression[] coerced = coerceComparable(sides[0], sides[1], left + " and " + right);
    return Exprs.op(kind, ValueType.VALUE_TYPE_BOOLEAN, coerced[0], coerced[1]);
  }

  /**
   * Checks that two operands compare; a text constant compared with a
   * TIMESTAMP is read as a timestamp.
   */
  static Expression[] coerceComparable(Expression a, Expression b, String what) throws PlanningException {
    if (a.getValueType() == ValueType.VALUE_TYPE_TIMESTAMP && b.getValueType() == ValueType.VALUE_TYPE_VARCHAR
        && Exprs.isConstant(b)) {
      return new Expression[] {a, castTo(b, ValueType.VALUE_TYPE_TIMESTAMP, 0)};
    }
    if (b.getValueType() == ValueType.VALUE_TYPE_TIMESTAMP && a.getValueType() == ValueType.VALUE_TYPE_VARCHAR
        && Exprs.isConstant(a)) {
      return new Expression[] {castTo(a, ValueType.VALUE_TYPE_TIMESTAMP, 0), b};
    }
    if (!TypeRules.comparable(a.getValueType(), b.getValueType())) {
      throw new PlanningException("cannot compare " + TypeRules.name(a.getValueType()) + " with "
          + TypeRules.name(b.getValueType()) + ": " + what);
    }
    return new Expression[] {a, b};
  }

  static Expression castTo(Expression e, ValueType type, int maxLength) {
    return Expression.newBuilder()
        .setKind(ExpressionKind.EXPRESSION_KIND_CAST)
        .setValueType(type)
        .setMaxLength(maxLength)
        .addChildren(e)
        .build();
  }

  private Expression between(Between b) throws PlanningException {
    final Expression value = bind(b.getLeftExpression());
    final ValueType t = value.getValueType();
    final Expression low = bind(b.getBetweenExpressionStart(), t);
    final Expression high = bind(b.getBetweenExpressionEnd(), t);
    final String what = b.toString();
    final Expression[] lowSide = coerceComparable(value, low, what);
    final Expression[] highSide = coerceComparable(value, high, what);
    final Expression between =
        Exprs.op(ExpressionKind.EXPRESSION_KIND_BETWEEN, ValueType.VALUE_TYPE_BOOLEAN, value, lowSide[1], highSide[1]);
    return b.isNot() ? not(between) : between;
  }

  private Expression in(InExpression in) throws PlanningException {
    if (in.getRightExpression() instanceof Select select) {
      final Expression tested = bind(in.getLeftExpression());
      final Expression result = SubqueryBinder.bind(this, select, SubqueryKind.SUBQUERY_KIND_IN, tested,
          ValueType.VALUE_TYPE_UNSPECIFIED);
      return in.isNot() ? not(result) : result;
    }
    if (!(in.getRightExpression() instanceof ExpressionList<?> list)) {
      throw new PlanningException("unsupported IN: " + in);
    }
    final Expression value = bind(in.getLeftExpression());
    if (list.isEmpty()) {
      // An empty list (SQLite's extension) contains nothing, not even NULL.
      return Exprs.constant(Exprs.booleanValue(in.isNot()));
    }
    final List<Expression> children = new ArrayList<>();
    children.add(value);
    for (net.sf.jsqlparser.expression.Expression item : list) {
      final Expression bound = bind(item, value.getValueType());
      children.add(coerceComparable(value, bound, in.toString())[1]);
    }
    final Expression result = Exprs.op(ExpressionKind.EXPRESSION_KIND_IN_LIST, ValueType.VALUE_TYPE_BOOLEAN, children);
    return in.isNot() ? not(result) : result;
  }

  private Expression like(LikeExpression like) throws PlanningException {
    if (like.getLikeKeyWord() != LikeExpression.KeyWord.LIKE) {
      throw new PlanningException(like.getLikeKeyWord() + " is not supported; use LIKE: " + like);
    }
    final Expression value = bind(like.getLeftExpression(), ValueType.VALUE_TYPE_VARCHAR);
    final Expression pattern = bind(like.getRightExpression(), ValueType.VALUE_TYPE_VARCHAR);
    for (Expression side : List.of(value, pattern)) {
      if (!TypeRules.isString(side.getValueType()) && !TypeRules.isNull(side.getValueType())) {
        throw new PlanningException("LIKE needs text, found " + TypeRules.name(side.getValueType()) + ": " + like);
      }
    }
    final List<Expression> children = new ArrayList<>(List.of(value, pattern));
    if (like.getEscape() != null) {
      children.add(bind(like.getEscape(), ValueType.VALUE_TYPE_VARCHAR));
    }
    final Expression result = Exprs.op(ExpressionKind.EXPRESSION_KIND_LIKE, ValueType.VALUE_TYPE_BOOLEAN, children);
    return like.isNot() ? not(result) : result;
  }

  private Expression caseExpression(CaseExpression c, ValueType hint) throws PlanningException {
    final Expression subject = c.getSwitchExpression() == null ? null : bind(c.getSwitchExpression());
    final List<Expression> conditions = new ArrayList<>();
    final List<Expression> results = new ArrayList<>();
    ValueType type = ValueType.VALUE_TYPE_NULL;
    for (WhenClause when : c.getWhenClauses()) {
      if (subject == null) {
        conditions.add(bindCondition(when.getWhenExpression(), "WHEN"));
      } else {
        final Expression value = bind(when.getWhenExpression(), subject.getValueType());
        final Expression[] pair = coerceComparable(subject, value, c.toString());
        conditions.add(Exprs.op(ExpressionKind.EXPRESSION_KIND_EQUAL, ValueType.VALUE_TYPE_BOOLEAN, pair[0], pair[1]));
      }
      final Expression result = bind(when.getThenExpression(), hint);
      results.add(result);
      type = TypeRules.common(type, result.getValueType(), "CASE");
    }
    Expression elseResult = null;
    if (c.getElseExpression() != null) {
      elseResult = bind(c.getElseExpression(), hint);
      type = TypeRules.common(type, elseResult.getValueType(), "CASE");
    }
    if (TypeRules.isNull(type)) {
      type = ValueType.VALUE_TYPE_BIGINT;
    }
    final Expression.Builder out = Expression.newBuilder().setKind(ExpressionKind.EXPRESSION_KIND_CASE).setValueType(type);
    for (int i = 0; i < conditions.size(); i++) {
      out.addChildren(conditions.get(i)).addChildren(results.get(i));
    }
    if (elseResult != null) {
      out.addChildren(elseResult).setHasElse(true);
    }
    return out.build();
  }

  private Expression cast(CastExpression c) throws PlanningException {
    final TypeSpec target = TypeSpec.of(c.getColDataType());
    final Expression value = bind(c.getLeftExpression(), target.type());
    if (value.getValueType() == target.type() && target.maxLength() == 0) {
      return value;
    }
    return castTo(value, target.type(), target.maxLength());
  }

  static Expression function(org.partita.proto.Function function, ValueType type, List<Expression> args) {
    return Expression.newBuilder()
        .setKind(ExpressionKind.EXPRESSION_KIND_FUNCTION)
        .setFunction(function)
        .setValueType(type)
        .addAllChildren(args)
        .build();
  }

  /** Literal helpers that need no scope. */
  static final class Literals {
    private Literals() {}

    /** The constant for a literal, or null when {@code e} is not one. */
    static Expression bind(net.sf.jsqlparser.expression.Expression e) throws PlanningException {
      if (e instanceof LongValue v) {
        final BigInteger big = v.getBigIntegerValue();
        if (big.bitLength() < 64) {
          return Exprs.constant(Exprs.bigint(big.longValue()));
        }
        return decimalConstant(new BigDecimal(big));
      }
      if (e instanceof DoubleValue v) {
        final String text = v.toString();
        if (text.contains("e") || text.contains("E")) {
          return Exprs.constant(Exprs.floatValue(v.getValue()));
        }
        return decimalConstant(new BigDecimal(text));
      }
      if (e instanceof StringValue s) {
        return Exprs.constant(Exprs.varchar(s.getValue().replace("''", "'")));
      }
      if (e instanceof NullValue) {
        return Exprs.constant(Exprs.nullOf(ValueType.VALUE_TYPE_NULL));
      }
      if (e instanceof HexValue h) {
        String digits = h.getValue().strip();
        if (digits.length() >= 3 && (digits.startsWith("X'") || digits.startsWith("x'"))) {
          digits = digits.substring(2, digits.length() - 1);
        } else if (digits.startsWith("0x") || digits.startsWith("0X")) {
          digits = digits.substring(2);
        }
        try {
          return Exprs.constant(Exprs.varbinary(HexFormat.of().parseHex(digits)));
        } catch (IllegalArgumentException ex) {
          throw new PlanningException("malformed hexadecimal literal " + h.getValue());
        }
      }
      return null;
    }

    /**
     * A numeric literal as DECIMAL(38, 12): more than 26 integer digits makes
     * it a FLOAT, more than 12 fraction digits are rounded half-even.
     */
    private static Expression decimalConstant(BigDecimal value) {
      if (value.precision() - value.scale() > 26) {
        return Exprs.constant(Exprs.floatValue(value.doubleValue()));
      }
      final BigDecimal fitted = value.scale() > 12 ? value.setScale(12, java.math.RoundingMode.HALF_EVEN) : value;
      return Exprs.constant(Exprs.decimal(fitted));
    }

    /** -constant folded, or null. */
    static Expression negate(Expression e) {
      if (!Exprs.isConstant(e) || Exprs.isNullConstant(e)) {
        return null;
      }
      final org.partita.proto.Value v = e.getConstant();
      switch (v.getValueCase()) {
        case INT_VALUE:
          if (v.getIntValue() == Long.MIN_VALUE || !TypeRules.isInteger(v.getType())) {
            return null;
          }
          return Exprs.constant(Exprs.bigint(-v.getIntValue()));
        case FLOAT_VALUE:
          return Exprs.constant(Exprs.floatValue(-v.getFloatValue()));
        case DECIMAL_VALUE:
          return Exprs.constant(Exprs.decimal(new BigDecimal(v.getDecimalValue()).negate()));
        default:
          return null;
      }
    }

    /** Integer arithmetic on two BIGINT constants, or null when it would overflow or is not foldable. */
    static Expression foldArithmetic(ExpressionKind kind, ValueType type, Expression a, Expression b) {
      if (type != ValueType.VALUE_TYPE_BIGINT || !Exprs.isConstant(a) || !Exprs.isConstant(b)
          || a.getConstant().getValueCase() != org.partita.proto.Value.ValueCase.INT_VALUE
          || b.getConstant().getValueCase() != org.partita.proto.Value.ValueCase.INT_VALUE) {
        return null;
      }
      final long x = a.getConstant().getIntValue();
      final long y = b.getConstant().getIntValue();
      try {
        return switch (kind) {
          case EXPRESSION_KIND_ADD -> Exprs.constant(Exprs.bigint(Math.addExact(x, y)));
          case EXPRESSION_KIND_SUBTRACT -> Exprs.constant(Exprs.bigint(Math.subtractExact(x, y)));
          case EXPRESSION_KIND_MULTIPLY -> Exprs.constant(Exprs.bigint(Math.multiplyExact(x, y)));
          default -> null;  // division keeps its run-time error on zero
        };
      } catch (ArithmeticException overflow) {
        return null;  // evaluated at run time, which reports the overflow
      }
    }
  }
}
