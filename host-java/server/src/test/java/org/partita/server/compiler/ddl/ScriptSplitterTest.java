package org.partita.server.compiler.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScriptSplitterTest {

  private static List<ScriptStatement> split(String text) throws DdlException {
    return ScriptSplitter.split("schema.sql", text);
  }

  private static List<String> texts(String text) throws DdlException {
    return split(text).stream().map(ScriptStatement::text).toList();
  }

  private static SourcePosition at(int line, int column) {
    return new SourcePosition("schema.sql", line, column);
  }

  @Test
  void shouldReturnNoStatementsForEmptyInput() throws DdlException {
    assertTrue(split("").isEmpty());
  }

  @Test
  void shouldReturnNoStatementsForOnlyBlanksAndComments() throws DdlException {
    assertTrue(split("  \n-- nothing here;\n/* nor ; here */ ;;\n\t;").isEmpty());
  }

  @Test
  void shouldSplitAtSemicolonsAndRecordStarts() throws DdlException {
    final List<ScriptStatement> statements =
        split("CREATE TABLE a (x INT);\nCREATE TABLE b (y INT);\n");
    assertEquals(2, statements.size());
    assertEquals("CREATE TABLE a (x INT)", statements.get(0).text());
    assertEquals(at(1, 1), statements.get(0).start());
    assertEquals("CREATE TABLE b (y INT)", statements.get(1).text());
    assertEquals(at(2, 1), statements.get(1).start());
  }

  @Test
  void shouldKeepLastStatementWithoutSemicolon() throws DdlException {
    assertEquals(List.of("SELECT 1", "SELECT 2"), texts("SELECT 1;\n  SELECT 2  \n"));
  }

  @Test
  void shouldSkipBlankStatements() throws DdlException {
    assertEquals(List.of("SELECT 1", "SELECT 2"), texts(";SELECT 1;;  ;\n;SELECT 2;;"));
  }

  @Test
  void shouldIgnoreSemicolonsAndDoubledQuotesInStrings() throws DdlException {
    assertEquals(List.of("INSERT INTO t VALUES ('a;b''c;', '''')", "SELECT 1"),
        texts("INSERT INTO t VALUES ('a;b''c;', '''');SELECT 1"));
  }

  @Test
  void shouldIgnoreSemicolonsAndDoubledQuotesInQuotedIdentifiers() throws DdlException {
    assertEquals(List.of("CREATE TABLE \"a;\"\"b\" (x INT)", "SELECT 1"),
        texts("CREATE TABLE \"a;\"\"b\" (x INT); SELECT 1"));
  }

  @Test
  void shouldBlankLineCommentsKeepingLength() throws DdlException {
    final String text = texts("SELECT 1 -- the first; not the end\n, 2;").get(0);
    assertEquals("SELECT 1 " + " ".repeat(25) + "\n, 2", text);
  }

  @Test
  void shouldBlankBlockCommentsKeepingLineBreaks() throws DdlException {
    final String text = texts("SELECT /* a;\r\nb */ 1;").get(0);
    assertEquals("SELECT " + " ".repeat(5) + "\r\n" + " ".repeat(4) + " 1", text);
  }

  @Test
  void shouldTrimTrailingComment() throws DdlException {
    assertEquals(List.of("SELECT 1", "SELECT 2"), texts("SELECT 1 /* one */;SELECT 2 -- two"));
  }

  @Test
  void shouldEndBlockCommentAtFirstCloseWithoutNesting() throws DdlException {
    final String text = texts("SELECT /* a /* b */ 1 */;").get(0);
    assertEquals("SELECT " + " ".repeat(12) + " 1 */", text);
  }

  @Test
  void shouldIgnoreCommentMarkersInStringsAndIdentifiers() throws DdlException {
    assertEquals(List.of("SELECT '--x', '/*', \"--y\" FROM t", "SELECT 2"),
        texts("SELECT '--x', '/*', \"--y\" FROM t; SELECT 2"));
  }

  @Test
  void shouldIgnoreQuotesAndBlockMarkersInComments() throws DdlException {
    assertEquals(List.of("SELECT 1", "SELECT 2"),
        texts("-- it's /* not a block\nSELECT 1; /* don't -- */ SELECT 2;"));
  }

  @Test
  void shouldNotTakeSingleDashOrSlashForComments() throws DdlException {
    assertEquals(List.of("SELECT 4-2/1, 3 * -1"), texts("SELECT 4-2/1, 3 * -1;"));
  }

  @Test
  void shouldStartAfterLeadingComments() throws DdlException {
    final ScriptStatement statement =
        split("-- header\n/* block\n   comment */  CREATE TABLE t (a INT);").get(0);
    assertEquals(at(3, 16), statement.start());
    assertEquals("CREATE TABLE t (a INT)", statement.text());
  }

  @Test
  void shouldCountCrLfAsOneLineBreak() throws DdlException {
    final List<ScriptStatement> statements =
        split("CREATE TABLE a (x INT);\r\n\r\nCREATE TABLE b (\r\n  y INT);\r\n");
    assertEquals(at(3, 1), statements.get(1).start());
    assertEquals("CREATE TABLE b (\r\n  y INT)", statements.get(1).text());
    final int y = statements.get(1).text().indexOf('y');
    assertEquals(at(4, 3), statements.get(1).positionOf(y));
  }

  @Test
  void shouldCountLoneCrAsLineBreak() throws DdlException {
    assertEquals(at(2, 1), split("SELECT 1;\rSELECT 2;").get(1).start());
  }

  @Test
  void shouldEndProcedureBodyAtSemicolonOutsideStrings() throws DdlException {
    assertEquals(
        List.of("CREATE PROCEDURE p AS SELECT * FROM t WHERE a = ';'",
            "PARTITION TABLE t ON COLUMN a"),
        texts("CREATE PROCEDURE p AS SELECT * FROM t WHERE a = ';';\n"
            + "PARTITION TABLE t ON COLUMN a;"));
  }

  @Test
  void shouldSplitManyStatements() throws DdlException {
    final StringBuilder script = new StringBuilder();
    for (int i = 0; i < 1000; i++) {
      script.append("SELECT ").append(i).append(";\n");
    }
    final List<ScriptStatement> statements = split(script.toString());
    assertEquals(1000, statements.size());
    assertEquals("SELECT 999", statements.get(999).text());
    assertEquals(at(1000, 1), statements.get(999).start());
  }

  @Test
  void shouldRejectUnterminatedBlockCommentAtItsStart() {
    final DdlException e = assertThrows(DdlException.class,
        () -> split("SELECT 1;\n  /* never closed; SELECT 2;"));
    assertEquals(at(2, 3), e.position());
    assertEquals("schema.sql:2:3: unterminated block comment: no */ before the end of the file\n"
        + "  /* never closed; SELECT 2;\n  ^~", e.getMessage());
  }

  @Test
  void shouldRejectUnterminatedStringAtItsStart() {
    final DdlException e = assertThrows(DdlException.class,
        () -> split("SELECT 1;\nSELECT 'abc;\nSELECT 'it''s';"));
    assertEquals(at(3, 14), e.position());
    assertEquals("unterminated string literal: no closing ' before the end of the file",
        e.reason());
  }

  @Test
  void shouldRejectStringEndingInDoubledQuote() {
    final DdlException e = assertThrows(DdlException.class, () -> split("SELECT 'abc''"));
    assertEquals(at(1, 8), e.position());
  }

  @Test
  void shouldRejectUnterminatedQuotedIdentifierAtItsStart() {
    final DdlException e =
        assertThrows(DdlException.class, () -> split("-- x\n\tDROP TABLE \"abc;"));
    assertEquals(at(2, 13), e.position());
    assertEquals("unterminated quoted identifier: no closing \" before the end of the file",
        e.reason());
  }

  @Test
  void shouldAcceptUnterminatedLineCommentAtEnd() throws DdlException {
    assertEquals(List.of("SELECT 1"), texts("SELECT 1; -- trailing"));
  }

  @Test
  void shouldNotLeakCommentTextIntoStatements() throws DdlException {
    final String text = texts("SELECT /* secret */ 1 -- hidden\n FROM t").get(0);
    assertFalse(text.contains("secret") || text.contains("hidden"));
  }
}
