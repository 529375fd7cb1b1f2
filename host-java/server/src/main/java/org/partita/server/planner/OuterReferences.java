package org.partita.server.planner;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.schema.Column;
import org.partita.proto.Expression;
import org.partita.proto.ExpressionKind;

/**
 * The columns of enclosing queries that a subquery names (correlation). Each
 * distinct one becomes an argument of the SUBQUERY expression, bound in the
 * enclosing query's context, and is read inside the subquery's plan as
 * {@code OUTER_COLUMN i}. A name the enclosing query cannot resolve either is
 * looked up further out through that query's own references.
 */
final class OuterReferences {
  private final ExpressionBinder enclosing;
  private final List<Expression> arguments = new ArrayList<>();

  OuterReferences(ExpressionBinder enclosing) {
    this.enclosing = enclosing;
  }

  /** The OUTER_COLUMN for {@code column} of an enclosing query; an error when no query has it. */
  Expression resolve(Column column) throws PlanningException {
    final Expression outer = enclosing.bind(column);
    int i = arguments.indexOf(outer);
    if (i < 0) {
      arguments.add(outer);
      i = arguments.size() - 1;
    }
    return Expression.newBuilder()
        .setKind(ExpressionKind.EXPRESSION_KIND_OUTER_COLUMN)
        .setValueType(outer.getValueType())
        .setColumnIndex(i)
        .build();
  }

  /** The arguments, over the enclosing query's row, in OUTER_COLUMN order. */
  List<Expression> arguments() {
    return arguments;
  }
}
