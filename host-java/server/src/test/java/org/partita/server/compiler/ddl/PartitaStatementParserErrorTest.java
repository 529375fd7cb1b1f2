package org.partita.server.compiler.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Every error of {@link PartitaStatementParser}, each with its exact position. Statements follow
 * a header of comments and a first statement, so they start on line 5.
 */
class PartitaStatementParserErrorTest {

  private static final String HEADER =
      "-- voter schema; partitioning follows\n/* written\n   by hand */\nSELECT 1;\n";
  private static final int LINE = 5;

  /** Parses every statement of HEADER + {@code statements}; returns the error. */
  private static DdlException error(String statements) {
    return assertThrows(DdlException.class, () -> {
      for (ScriptStatement statement : ScriptSplitter.split("schema.sql", HEADER + statements)) {
        PartitaStatementParser.parse(statement);
      }
    });
  }

  private static void assertError(String statements, int column, String reason) {
    assertError(statements, LINE, column, reason);
  }

  private static void assertError(String statements, int line, int column, String reason) {
    final DdlException e = error(statements);
    assertEquals(reason, e.reason());
    assertEquals(new SourcePosition("schema.sql", line, column), e.position());
  }

  @Test
  void shouldRejectMisspelledKeywordWithExcerpt() {
    final DdlException e = error("PARTITION TABLE votes ON COLUM phone;");
    assertEquals("schema.sql:5:26: expected COLUMN after 'ON', found 'COLUM'\n"
        + "PARTITION TABLE votes ON COLUM phone;\n" + " ".repeat(25) + "^~~~~", e.getMessage());
  }

  @Test
  void shouldRejectMissingColumnName() {
    assertError("PARTITION TABLE votes ON COLUMN;", 32,
        "unexpected end of statement, expected a column name");
  }

  @Test
  void shouldRejectReservedWordAsTableName() {
    assertError("PARTITION TABLE ON COLUMN c", 17,
        "expected a table name after 'TABLE', found reserved word 'ON' "
            + "(quote it to use it as a name)");
  }

  @Test
  void shouldRejectEmptyQuotedName() {
    assertError("PARTITION TABLE \"\" ON COLUMN c", 17,
        "expected a table name after 'TABLE', found an empty name");
  }

  @Test
  void shouldRejectNumberAsTableName() {
    assertError("PARTITION TABLE 42 ON COLUMN c", 17,
        "expected a table name after 'TABLE', found '42'");
  }

  @Test
  void shouldRejectPartitionWithoutTable() {
    assertError("PARTITION votes ON COLUMN c", 11,
        "expected TABLE after 'PARTITION', found 'votes'");
  }

  @Test
  void shouldRejectPartitionProcedureWithHint() {
    assertError("PARTITION PROCEDURE Vote ON TABLE t COLUMN c", 11,
        "PARTITION PROCEDURE is not supported; write "
            + "CREATE PROCEDURE ... PARTITION ON TABLE t COLUMN c instead");
  }

  @Test
  void shouldRejectTrailingTokens() {
    assertError("PARTITION TABLE t ON COLUMN c extra", 31,
        "expected end of statement after 'c', found 'extra'");
  }

  @Test
  void shouldRejectErrorOnLaterLineOfStatement() {
    assertError("PARTITION TABLE votes\n  ON\n  COLUM phone", LINE + 2, 3,
        "expected COLUMN after 'ON', found 'COLUM'");
  }

  @Test
  void shouldReportExactPositionWithCrLf() {
    assertError("PARTITION TABLE votes\r\n  ON\r\n  COLUM phone;\r\n", LINE + 2, 3,
        "expected COLUMN after 'ON', found 'COLUM'");
  }

  @Test
  void shouldReportErrorInLaterStatement() {
    assertError("DROP TABLE a;\nDROP TABLE b;\n  DROP TABLE c d;", LINE + 2, 16,
        "expected end of statement after 'c', found 'd'");
  }

  @Test
  void shouldRejectMissingClassName() {
    assertError("CREATE PROCEDURE FROM CLASS;", 28,
        "unexpected end of statement, expected a class name");
  }

  @Test
  void shouldRejectQuotedClassName() {
    assertError("CREATE PROCEDURE FROM CLASS \"a.B\"", 29,
        "expected a class name after 'CLASS', found '\"a.B\"'");
  }

  @Test
  void shouldRejectClassNameEndingInDot() {
    assertError("CREATE PROCEDURE FROM CLASS a.b.", 33,
        "unexpected end of statement, expected the rest of the class name");
  }

  @Test
  void shouldRejectEmptyClassNameSegment() {
    assertError("CREATE PROCEDURE FROM CLASS a..B", 31,
        "expected the rest of the class name after '.', found '.'");
  }

  @Test
  void shouldRejectFromWithoutClass() {
    assertError("CREATE PROCEDURE FROM voter.Vote", 23,
        "expected CLASS after 'FROM', found 'voter'");
  }

  @Test
  void shouldRejectNameBeforeFromClass() {
    assertError("CREATE PROCEDURE Vote PARTITION ON TABLE t COLUMN c FROM CLASS voter.Vote", 18,
        "a procedure FROM CLASS is named after its class; remove the name 'Vote'");
  }

  @Test
  void shouldRejectMissingNameBeforeAs() {
    assertError("CREATE PROCEDURE AS SELECT 1", 18,
        "expected a procedure name before AS: CREATE PROCEDURE name AS sql-statement");
  }

  @Test
  void shouldRejectMissingAs() {
    assertError("CREATE PROCEDURE p SELECT * FROM t", 20,
        "expected PARTITION ON, AS or FROM CLASS after 'p', found 'SELECT'");
  }

  @Test
  void shouldRejectMissingAsAfterPartitioning() {
    assertError("CREATE PROCEDURE p PARTITION ON TABLE t COLUMN c SELECT 1", 50,
        "expected AS or FROM CLASS after 'c', found 'SELECT'");
  }

  @Test
  void shouldRejectBareCreateProcedure() {
    assertError("CREATE PROCEDURE ;", 17,
        "unexpected end of statement, expected PARTITION ON, AS or FROM CLASS");
  }

  @Test
  void shouldRejectMissingBodyAfterAs() {
    assertError("CREATE PROCEDURE p AS -- nothing\n;", 22,
        "unexpected end of statement, expected an SQL statement");
  }

  @Test
  void shouldRejectPartitioningWithoutOnTable() {
    assertError("CREATE PROCEDURE PARTITION TABLE t COLUMN c FROM CLASS a.B", 28,
        "expected ON after 'PARTITION', found 'TABLE'");
  }

  @Test
  void shouldRejectNegativeParameter() {
    final DdlException e =
        error("CREATE PROCEDURE PARTITION ON TABLE t COLUMN c PARAMETER -1 FROM CLASS a.B");
    assertEquals("PARAMETER must be a non-negative integer, found '-1'", e.reason());
    assertEquals(new SourcePosition("schema.sql", LINE, 58), e.position());
    assertEquals("-1", e.offendingText().orElseThrow());
  }

  @Test
  void shouldRejectNonIntegerParameter() {
    assertError("CREATE PROCEDURE PARTITION ON TABLE t COLUMN c PARAMETER 1.5 FROM CLASS a.B", 58,
        "PARAMETER must be a non-negative integer, found '1.5'");
    assertError("CREATE PROCEDURE PARTITION ON TABLE t COLUMN c PARAMETER x FROM CLASS a.B", 58,
        "PARAMETER must be a non-negative integer, found 'x'");
    assertError("CREATE PROCEDURE PARTITION ON TABLE t COLUMN c PARAMETER 2x FROM CLASS a.B", 58,
        "PARAMETER must be a non-negative integer, found '2x'");
  }

  @Test
  void shouldRejectMissingParameter() {
    assertError("CREATE PROCEDURE PARTITION ON TABLE t COLUMN c PARAMETER", 57,
        "unexpected end of statement, expected a parameter index");
  }

  @Test
  void shouldRejectHugeParameter() {
    assertError("CREATE PROCEDURE PARTITION ON TABLE t COLUMN c PARAMETER 99999999999 "
        + "FROM CLASS a.B", 58, "PARAMETER index 99999999999 is too large");
  }

  @Test
  void shouldRejectUnknownDropKind() {
    assertError("DROP SCHEMA s", 6,
        "expected TABLE, INDEX, VIEW, PROCEDURE or ROLE after 'DROP', found 'SCHEMA'");
  }

  @Test
  void shouldRejectBareDrop() {
    assertError("DROP", 5,
        "unexpected end of statement, expected TABLE, INDEX, VIEW, PROCEDURE or ROLE");
  }

  @Test
  void shouldRejectDropWithoutName() {
    assertError("DROP VIEW", 10, "unexpected end of statement, expected a view name");
    assertError("DROP TABLE IF EXISTS", 21, "unexpected end of statement, expected a table name");
  }

  @Test
  void shouldRejectIfWithoutExists() {
    assertError("DROP TABLE IF t", 15, "expected EXISTS after 'IF', found 't'");
  }

  @Test
  void shouldRejectIfExistsTwice() {
    assertError("DROP TABLE IF EXISTS t IF EXISTS", 24, "IF EXISTS is given twice");
  }

  @Test
  void shouldRejectCascade() {
    final DdlException e = error("DROP TABLE t IF EXISTS CASCADE");
    assertEquals(
        "CASCADE is not supported; drop the dependent views, indexes and procedures first",
        e.reason());
    assertEquals(new SourcePosition("schema.sql", LINE, 24), e.position());
    assertEquals("CASCADE", e.offendingText().orElseThrow());
  }

  @Test
  void shouldRejectUnterminatedQuoteInTextNotFromSplitter() {
    final String text = "DROP TABLE \"abc";
    final ScriptStatement statement =
        new ScriptStatement(new SourceText("f.sql", text), 0, text);
    final DdlException e =
        assertThrows(DdlException.class, () -> PartitaStatementParser.parse(statement));
    assertEquals(new SourcePosition("f.sql", 1, 12), e.position());
    assertEquals("unterminated quoted text: no closing \"", e.reason());
  }
}
