package org.partita.sqllogictest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScriptParserTest {

  private static List<ScriptRecord> parse(String text) {
    return ScriptParser.parse("t.test", text);
  }

  private static <T extends ScriptRecord> T only(Class<T> type, String text) {
    final List<ScriptRecord> records = parse(text);
    assertEquals(1, records.size(), records.toString());
    return assertInstanceOf(type, records.get(0));
  }

  @Test
  void shouldParseStatementOkWithMultiLineSql() {
    final ScriptRecord.Statement statement =
        only(ScriptRecord.Statement.class, "statement ok\nCREATE TABLE t1(\n  a INTEGER)\n");

    assertFalse(statement.expectError());
    assertEquals("CREATE TABLE t1(\n  a INTEGER)", statement.sql());
    assertEquals(new Location("t.test", 1), statement.location());
  }

  @Test
  void shouldParseStatementErrorWithAndWithoutExpectedText() {
    final List<ScriptRecord> records = parse("statement error\nDROP TABLE x\n\n"
        + "statement error no such table\nDROP TABLE y\n\n"
        + "statement error\nDROP TABLE z\n----\nno such table: z\n");

    final ScriptRecord.Statement plain = (ScriptRecord.Statement) records.get(0);
    assertTrue(plain.expectError());
    assertNull(plain.expectedError());
    assertEquals("no such table", ((ScriptRecord.Statement) records.get(1)).expectedError());
    final ScriptRecord.Statement separated = (ScriptRecord.Statement) records.get(2);
    assertEquals("DROP TABLE z", separated.sql());
    assertEquals("no such table: z", separated.expectedError());
  }

  @Test
  void shouldParseQueryHeaderSqlAndValues() {
    final ScriptRecord.Query query = only(ScriptRecord.Query.class,
        "query ITR rowsort label-7\nSELECT a,\n b, c FROM t\n----\n1\nx y\n2.500\n");

    assertEquals("ITR", query.types());
    assertEquals(SortMode.ROWSORT, query.sortMode());
    assertEquals("label-7", query.label());
    assertEquals("SELECT a,\n b, c FROM t", query.sql());
    assertEquals(new ExpectedResult.Values(List.of("1", "x y", "2.500")), query.expected());
  }

  @Test
  void shouldParseEachSortModeAndDefaultToNosort() {
    assertEquals(SortMode.NOSORT, only(ScriptRecord.Query.class, "query I\nSELECT 1\n").sortMode());
    assertEquals(SortMode.NOSORT,
        only(ScriptRecord.Query.class, "query I nosort\nSELECT 1\n").sortMode());
    assertEquals(SortMode.VALUESORT,
        only(ScriptRecord.Query.class, "query I valuesort\nSELECT 1\n").sortMode());
    assertNull(only(ScriptRecord.Query.class, "query I rowsort\nSELECT 1\n").label());
  }

  @Test
  void shouldParseHashLineAsHash() {
    final ScriptRecord.Query query = only(ScriptRecord.Query.class,
        "query I nosort\nSELECT a FROM t\n----\n30 values hashing to 3c13dee48d9356ae19af2515e05e6b54\n");

    assertEquals(new ExpectedResult.Hash(30, "3c13dee48d9356ae19af2515e05e6b54"), query.expected());
  }

  @Test
  void shouldTreatQueryWithoutSeparatorAsExpectingNothing() {
    final ScriptRecord.Query query = only(ScriptRecord.Query.class, "query I nosort\nSELECT 1\n");

    assertInstanceOf(ExpectedResult.None.class, query.expected());
  }

  @Test
  void shouldAttachConditionsAndIgnoreTheirComments() {
    final ScriptRecord.Query query = only(ScriptRecord.Query.class,
        "skipif mysql # aggregate syntax\nonlyif sqlite\nquery I nosort\nSELECT 1\n----\n1\n");

    assertEquals(List.of(new Condition(Condition.Kind.SKIPIF, "mysql"),
        new Condition(Condition.Kind.ONLYIF, "sqlite")), query.conditions());
    assertEquals(3, query.location().line());
  }

  @Test
  void shouldParseHaltAndHashThreshold() {
    final List<ScriptRecord> records = parse("hash-threshold 8\n\nonlyif mssql\nhalt\n\nhalt\n");

    assertEquals(8, ((ScriptRecord.HashThreshold) records.get(0)).threshold());
    final ScriptRecord.Halt guarded = (ScriptRecord.Halt) records.get(1);
    assertEquals(List.of(new Condition(Condition.Kind.ONLYIF, "mssql")), guarded.conditions());
    assertTrue(records.get(2).conditions().isEmpty());
    assertEquals(6, records.get(2).location().line());
  }

  @Test
  void shouldReadCrlfFilesLikeLfFiles() {
    final String lf = "hash-threshold 8\n\nstatement ok\nCREATE TABLE t(a INT)\n\n"
        + "query I rowsort label-1\nSELECT a FROM t\n----\n1\n2\n";

    assertEquals(parse(lf), parse(lf.replace("\n", "\r\n")));
  }

  @Test
  void shouldSkipCommentsAndTreatWhitespaceLinesAsBlank() {
    final List<ScriptRecord> records =
        parse("# a comment\n\n# another\nstatement ok\nSELECT 1\n   \t\nstatement ok\nSELECT 2");

    assertEquals(2, records.size());
    assertEquals("SELECT 1", ((ScriptRecord.Statement) records.get(0)).sql());
    assertEquals(7, records.get(1).location().line());
  }

  @Test
  void shouldReportBadRecordsAndGoOn() {
    final List<ScriptRecord> records = parse("query IX nosort\nSELECT 1\n----\n1\n\n"
        + "query I bogus\nSELECT 1\n\nfrobnicate\nstuff\n\nstatement maybe\nSELECT 1\n\n"
        + "statement ok\nSELECT 2\n");

    assertEquals(5, records.size());
    assertEquals("unknown column type 'X' (expected I, R or T)",
        ((ScriptRecord.Malformed) records.get(0)).problem());
    assertEquals("unknown sort mode 'bogus'", ((ScriptRecord.Malformed) records.get(1)).problem());
    assertEquals("unknown record type 'frobnicate'",
        ((ScriptRecord.Malformed) records.get(2)).problem());
    assertEquals(12, records.get(3).location().line());
    assertEquals("SELECT 2", ((ScriptRecord.Statement) records.get(4)).sql());
  }

  @Test
  void shouldReportConditionWithoutRecord() {
    final ScriptRecord.Malformed malformed = only(ScriptRecord.Malformed.class, "skipif mysql\n\n");

    assertEquals("condition without a record", malformed.problem());
  }
}
