package org.partita.server.planner;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.statement.Statement;

/**
 * SQL text to JSqlParser's tree, in bounded time. JSqlParser's "complex"
 * mode accepts more nested expressions but can backtrack exponentially on
 * deeply parenthesized ones, so the fast mode runs first, on the caller's
 * thread; only a statement it rejects is parsed again in complex mode, on a
 * parser thread, for at most {@link #COMPLEX_PARSE_MILLIS} ms. A statement
 * sent by a client can therefore never stall a server thread.
 *
 * <p>Thread-safe.
 */
final class SqlParser {
  static final long COMPLEX_PARSE_MILLIS = 2_000;

  private static final ExecutorService COMPLEX = Executors.newCachedThreadPool(r -> {
    final Thread t = new Thread(r, "partita-sql-parser");
    t.setDaemon(true);
    return t;
  });

  private SqlParser() {}

  /** REQUIRES: {@code sql} already passed through ParserWorkarounds. */
  static Statement parse(String sql) throws ParseException, PlanningException {
    try {
      return CCJSqlParserUtil.newParser(sql).withAllowComplexParsing(false).Statement();
    } catch (ParseException | RuntimeException | Error simpleFailed) {
      return parseComplex(sql);
    }
  }

  private static Statement parseComplex(String sql) throws ParseException, PlanningException {
    final CCJSqlParser parser = CCJSqlParserUtil.newParser(sql).withAllowComplexParsing(true);
    final Future<Statement> result = COMPLEX.submit(parser::Statement);
    try {
      return result.get(COMPLEX_PARSE_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      parser.interrupted = true;
      result.cancel(true);
      throw new PlanningException("statement too complex to parse within " + COMPLEX_PARSE_MILLIS
          + " ms (simplify its nesting): " + abbreviate(sql));
    } catch (ExecutionException e) {
      if (e.getCause() instanceof ParseException p) {
        throw p;
      }
      throw new PlanningException("cannot parse: " + abbreviate(sql) + " (" + e.getCause() + ")", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PlanningException("interrupted while parsing: " + abbreviate(sql));
    }
  }

  private static String abbreviate(String sql) {
    return sql.length() <= 200 ? sql : sql.substring(0, 200) + "...";
  }
}
