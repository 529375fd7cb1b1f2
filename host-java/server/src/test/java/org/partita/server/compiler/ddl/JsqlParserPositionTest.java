package org.partita.server.compiler.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.Token;
import org.junit.jupiter.api.Test;

/**
 * Checks the contract the compiler relies on: a line and column that JSqlParser reports for a
 * statement's text, given to {@link ScriptStatement#positionOf(int, int)}, is the file position of
 * the offending token, also after comments and CRLF line breaks.
 */
class JsqlParserPositionTest {

  /** Parses on the calling thread, as the compiler should (CCJSqlParserUtil.parse forks one). */
  private static Token offendingToken(String sql) {
    final ParseException e =
        assertThrows(ParseException.class, () -> CCJSqlParserUtil.newParser(sql).Statement());
    return e.currentToken.next;
  }

  @Test
  void shouldMapJsqlParserErrorToFilePosition() throws DdlException {
    final String script = "-- header\r\nSELECT 1;\r\n  SELECT a /* note */\r\n  FROM t t2 t3;";
    final ScriptStatement statement = ScriptSplitter.split("schema.sql", script).get(1);
    final Token token = offendingToken(statement.text());
    assertEquals("t3", token.image);
    assertEquals(new SourcePosition("schema.sql", 4, 13),
        statement.positionOf(token.beginLine, token.beginColumn));
  }

  @Test
  void shouldMapJsqlParserErrorInProcedureBodyToFilePosition() throws DdlException {
    final String script = "CREATE PROCEDURE p AS\n  SELECT a\n  FROM t t2 t3";
    final CreateProcedureAs procedure = (CreateProcedureAs) PartitaStatementParser
        .parse(ScriptSplitter.split("schema.sql", script).get(0)).orElseThrow();
    final Token token = offendingToken(procedure.sql());
    assertEquals("t3", token.image);
    assertEquals(new SourcePosition("schema.sql", 3, 13),
        procedure.body().positionOf(token.beginLine, token.beginColumn));
  }

  @Test
  void shouldCountTabAsOneColumnLikeJsqlParser() throws DdlException {
    final ScriptStatement statement =
        ScriptSplitter.split("schema.sql", "SELECT a\n\tFROM t\tt2 t3").get(0);
    final Token token = offendingToken(statement.text());
    assertEquals(new SourcePosition("schema.sql", 2, 12),
        statement.positionOf(token.beginLine, token.beginColumn));
  }
}
