package org.partita.server.compiler.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class PartitaStatementParserTest {

  private static Optional<PartitaStatement> tryParse(String script) throws DdlException {
    return PartitaStatementParser.parse(ScriptSplitter.split("schema.sql", script).get(0));
  }

  private static PartitaStatement parse(String script) throws DdlException {
    return tryParse(script).orElseThrow();
  }

  private static SourcePosition at(int line, int column) {
    return new SourcePosition("schema.sql", line, column);
  }

  private static Identifier id(String name, int line, int column) {
    return new Identifier(name, at(line, column));
  }

  @Test
  void shouldParsePartitionTable() throws DdlException {
    assertEquals(
        new PartitionTable(id("VOTES", 1, 17), id("PHONE_NUMBER", 1, 33), at(1, 1)),
        parse("PARTITION TABLE votes ON COLUMN phone_number;"));
  }

  @Test
  void shouldReadKeywordsInAnyCaseAndUpperCaseNames() throws DdlException {
    final PartitionTable statement =
        (PartitionTable) parse("partition Table Votes oN column Phone_Number");
    assertEquals("VOTES", statement.table().name());
    assertEquals("PHONE_NUMBER", statement.column().name());
  }

  @Test
  void shouldKeepQuotedNamesExactly() throws DdlException {
    final PartitionTable statement =
        (PartitionTable) parse("PARTITION TABLE \"Votes\" ON COLUMN \"a\"\"b\"");
    assertEquals("Votes", statement.table().name());
    assertEquals("a\"b", statement.column().name());
  }

  @Test
  void shouldAcceptQuotedReservedWordAsName() throws DdlException {
    final PartitionTable statement =
        (PartitionTable) parse("PARTITION TABLE \"TABLE\" ON COLUMN \"on\"");
    assertEquals("TABLE", statement.table().name());
    assertEquals("on", statement.column().name());
  }

  @Test
  void shouldParseProcedureFromClass() throws DdlException {
    final CreateProcedureFromClass statement = (CreateProcedureFromClass) parse(
        "-- procedures\n  CREATE PROCEDURE FROM CLASS voter.procedures.Vote;");
    assertEquals(id("voter.procedures.Vote", 2, 31), statement.className());
    assertEquals("Vote", statement.procedureName());
    assertEquals(Optional.empty(), statement.partitioning());
    assertEquals(at(2, 3), statement.position());
  }

  @Test
  void shouldNameProcedureFromClassInDefaultPackage() throws DdlException {
    assertEquals("Vote",
        ((CreateProcedureFromClass) parse("CREATE PROCEDURE FROM CLASS Vote")).procedureName());
  }

  @Test
  void shouldParsePartitionedProcedureFromClass() throws DdlException {
    final CreateProcedureFromClass statement = (CreateProcedureFromClass) parse(
        "create procedure\n  partition on table votes column phone_number parameter 2\n"
            + "  from class voter.Vote");
    assertEquals(
        Optional.of(new ProcedurePartitioning(
            id("VOTES", 2, 22), id("PHONE_NUMBER", 2, 35), 2, at(2, 3))),
        statement.partitioning());
    assertEquals("voter.Vote", statement.className().name());
  }

  @Test
  void shouldDefaultPartitioningParameterToZero() throws DdlException {
    final CreateProcedureFromClass statement = (CreateProcedureFromClass) parse(
        "CREATE PROCEDURE PARTITION ON TABLE t COLUMN c FROM CLASS a.B");
    assertEquals(0, statement.partitioning().orElseThrow().parameterIndex());
  }

  @Test
  void shouldParseProcedureAsStatement() throws DdlException {
    final CreateProcedureAs statement = (CreateProcedureAs) parse(
        "CREATE PROCEDURE count_votes PARTITION ON TABLE votes COLUMN phone PARAMETER 0 AS "
            + "SELECT COUNT(*) FROM votes WHERE phone = ?;");
    assertEquals(id("COUNT_VOTES", 1, 18), statement.name());
    assertEquals("SELECT COUNT(*) FROM votes WHERE phone = ?", statement.sql());
    assertEquals(at(1, 83), statement.body().start());
    assertEquals("VOTES", statement.partitioning().orElseThrow().table().name());
    assertEquals(at(1, 1), statement.position());
  }

  @Test
  void shouldMapProcedureBodyPositionsToFile() throws DdlException {
    final CreateProcedureAs statement = (CreateProcedureAs) parse(
        "/* voter */\nCREATE PROCEDURE p AS\n  SELECT * /* all */\n  FROM t WHERE a = ';'");
    assertEquals("SELECT * " + " ".repeat(9) + "\n  FROM t WHERE a = ';'", statement.sql());
    assertEquals(at(3, 3), statement.body().start());
    assertEquals(at(4, 3), statement.body().positionOf(2, 3));
  }

  @Test
  void shouldAcceptQuotedReservedWordAsProcedureName() throws DdlException {
    final CreateProcedureAs statement =
        (CreateProcedureAs) parse("CREATE PROCEDURE \"Partition\" AS DELETE FROM t");
    assertEquals("Partition", statement.name().name());
    assertEquals(Optional.empty(), statement.partitioning());
  }

  @Test
  void shouldParseDropOfEveryKind() throws DdlException {
    assertEquals(new DropObject(DropObject.Kind.TABLE, id("VOTES", 1, 12), false, at(1, 1)),
        parse("DROP TABLE votes"));
    assertEquals(DropObject.Kind.INDEX, ((DropObject) parse("drop index i")).kind());
    assertEquals(DropObject.Kind.VIEW, ((DropObject) parse("DROP VIEW v")).kind());
    assertEquals(new DropObject(DropObject.Kind.PROCEDURE, id("Vote", 1, 16), false, at(1, 1)),
        parse("DROP PROCEDURE \"Vote\""));
  }

  @Test
  void shouldAcceptIfExistsBeforeOrAfterName() throws DdlException {
    final DropObject before = (DropObject) parse("DROP TABLE IF EXISTS t");
    final DropObject after = (DropObject) parse("DROP VIEW v if exists");
    assertTrue(before.ifExists());
    assertEquals("T", before.name().name());
    assertTrue(after.ifExists());
    assertEquals("V", after.name().name());
    assertFalse(((DropObject) parse("DROP INDEX \"IF\"")).ifExists());
  }

  @Test
  void shouldLeaveOtherStatementsToJsqlParser() throws DdlException {
    assertEquals(Optional.empty(), tryParse("CREATE TABLE t (a INTEGER NOT NULL)"));
    assertEquals(Optional.empty(), tryParse("CREATE INDEX i ON t (a)"));
    assertEquals(Optional.empty(), tryParse("CREATE VIEW v AS SELECT a, COUNT(*) FROM t"));
    assertEquals(Optional.empty(), tryParse("CREATE UNIQUE INDEX i ON t (a)"));
    assertEquals(Optional.empty(), tryParse("SELECT * FROM t"));
    assertEquals(Optional.empty(), tryParse("INSERT INTO t VALUES (1)"));
    assertEquals(Optional.empty(), tryParse("\"PARTITION\" TABLE t"));
    assertEquals(Optional.empty(), tryParse("CREATE"));
    assertEquals(Optional.empty(), tryParse("(SELECT 1)"));
  }

  @Test
  void shouldNotReadPastProcedureBodyStart() throws DdlException {
    final CreateProcedureAs statement =
        (CreateProcedureAs) parse("CREATE PROCEDURE p AS @#! whatever 'x' \"y\"");
    assertEquals("@#! whatever 'x' \"y\"", statement.sql());
  }

  @Test
  void shouldParseEveryStatementOfScript() throws DdlException {
    final String script = "CREATE TABLE votes (phone BIGINT NOT NULL);\n"
        + "PARTITION TABLE votes ON COLUMN phone;\n"
        + "CREATE PROCEDURE FROM CLASS voter.Vote;\n"
        + "DROP PROCEDURE Vote IF EXISTS;\n";
    final long ours = ScriptSplitter.split("schema.sql", script).stream()
        .filter(s -> {
          try {
            return PartitaStatementParser.parse(s).isPresent();
          } catch (DdlException e) {
            throw new AssertionError(e);
          }
        })
        .count();
    assertEquals(3, ours);
  }
}
