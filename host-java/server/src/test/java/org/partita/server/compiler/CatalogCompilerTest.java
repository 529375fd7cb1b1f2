package org.partita.server.compiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.proto.IndexKind;
import org.partita.server.catalog.TableDef;
import org.partita.server.compiler.ddl.DdlException;

class CatalogCompilerTest {
  private final CatalogCompiler compiler = new CatalogCompiler(getClass().getClassLoader());

  private CompiledCatalog compile(String ddl) throws DdlException {
    return compiler.compile(List.of(new SourceFile("s.sql", ddl)));
  }

  private DdlException error(String ddl) {
    return assertThrows(DdlException.class, () -> compile(ddl));
  }

  @Test
  void shouldCompileTablesIndexesViewsAndPartitioning() throws Exception {
    final CompiledCatalog c = compile(String.join("\n",
        "-- a comment",
        "CREATE TABLE t (a BIGINT NOT NULL, b VARCHAR(10) DEFAULT 'x', c DECIMAL, d TIMESTAMP, e VARBINARY(4),",
        "  f TINYINT, g SMALLINT, h INTEGER NOT NULL, i FLOAT, CONSTRAINT pk_t PRIMARY KEY (a, h));",
        "CREATE INDEX t_b ON t (b);",
        "CREATE UNIQUE INDEX t_ah ON t (a, h) USING HASH;",
        "PARTITION TABLE t ON COLUMN a;",
        "CREATE VIEW v (b, n, mx) AS SELECT b, COUNT(*), MAX(i) FROM t WHERE f > 0 GROUP BY b;"));
    final TableDef t = c.schema().table("T").orElseThrow();
    assertEquals(0, t.partitionColumn());
    assertEquals(IndexKind.INDEX_KIND_HASH, t.indexes().get(0).kind());
    assertEquals("PK_T", t.indexes().get(0).name());
    assertEquals(IndexKind.INDEX_KIND_ORDERED, t.indexes().stream().filter(i -> i.name().equals("T_B"))
        .findFirst().orElseThrow().kind());
    assertEquals("x", t.columns().get(1).defaultValue().getStringValue());
    assertTrue(c.schema().table("V").orElseThrow().isView());
    assertEquals(2, c.engineCatalog().getTablesCount());
  }

  @Test
  void shouldCompileTheVoterSchemaFasterThanASecond() throws Exception {
    final String ddl = Files.readString(Path.of("../../bench/voter/ddl.sql"))
        .replaceAll("(?s)CREATE PROCEDURE.*", "");
    final long start = System.nanoTime();
    final CompiledCatalog c = compile(ddl);
    assertEquals(5, c.schema().tables().size());
    assertTrue(System.nanoTime() - start < 10_000_000_000L, "sanity bound only; the figure is in RESULTS.md");
  }

  @Test
  void shouldNameFileLineAndColumnOfSyntaxErrors() {
    final DdlException e = error("CREATE TABLE a (x INTEGER);\n\nCREATE TABLE b (y INTEGR NOT NULL,);");
    assertEquals(3, e.position().line());
    assertTrue(e.getMessage().startsWith("s.sql:3:"), e.getMessage());
  }

  @Test
  void shouldRejectBadSchemasWithTheirReason() {
    assertContains(error("PARTITION TABLE nope ON COLUMN x;"), "unknown table NOPE");
    assertContains(error("CREATE TABLE t (a INTEGER, a BIGINT);"), "column A appears twice");
    assertContains(error("CREATE TABLE t (a FLOAT); PARTITION TABLE t ON COLUMN a;"), "must be an integer");
    assertContains(error("CREATE TABLE t (a INTEGER, b INTEGER UNIQUE); PARTITION TABLE t ON COLUMN a;"),
        "must include the partitioning column");
    assertContains(error("CREATE TABLE t (a INTEGER, b INTEGER);"
        + " CREATE VIEW v AS SELECT a, COUNT(*) FROM t GROUP BY a HAVING COUNT(*) > 1;"), "cannot use HAVING");
    assertContains(error("CREATE TABLE t (a INTEGER, b INTEGER);"
        + " CREATE VIEW v AS SELECT a, AVG(b) FROM t GROUP BY a;"), "AVG is not supported in views");
    assertContains(error("CREATE TABLE t (a TINYINT DEFAULT 300);"), "out of range");
    assertContains(error("CREATE TABLE t (a VARCHAR(0));"), "length must be between");
    assertContains(error("CREATE TABLE t (a INTEGER); DROP TABLE u;"), "table U does not exist");
    assertContains(error("CREATE TABLE t (a INTEGER); SELECT * FROM t;"), "a schema holds DDL only");
  }

  @Test
  void shouldRejectBadProcedureClasses() {
    final String table = "CREATE TABLE accounts (owner BIGINT NOT NULL, id INTEGER NOT NULL, balance BIGINT NOT NULL);"
        + " PARTITION TABLE accounts ON COLUMN owner;";
    assertContains(error(table + "CREATE PROCEDURE FROM CLASS org.example.Missing;"), "not found on the class path");
    assertContains(error(table + "CREATE PROCEDURE FROM CLASS org.partita.server.database.procs.NoRun;"),
        "has no public run method");
    assertContains(error(table + "CREATE PROCEDURE FROM CLASS org.partita.server.database.procs.BadParameter;"),
        "unsupported type List");
    assertContains(error(table + "CREATE PROCEDURE FROM CLASS java.lang.String;"), "does not extend");
    assertContains(error(table + "CREATE PROCEDURE PARTITION ON TABLE accounts COLUMN owner"
        + " FROM CLASS org.partita.server.database.procs.TotalBalance;"), "needs every partition");
    assertContains(error(table + "CREATE PROCEDURE P AS SELECT nope FROM accounts;"), "unknown column NOPE");
    assertContains(error(table + "CREATE PROCEDURE P PARTITION ON TABLE accounts COLUMN id AS"
        + " SELECT * FROM accounts WHERE owner = ?;"), "partitioned on OWNER");
  }

  @Test
  void shouldLeaveTheCatalogUnchangedWhenAScriptFails() throws Exception {
    final CompiledCatalog base = compile("CREATE TABLE t (a INTEGER);");
    assertThrows(DdlException.class, () -> compiler.apply(base,
        new SourceFile("more.sql", "CREATE TABLE u (b INTEGER); CREATE TABLE t (c INTEGER);")));
    assertTrue(base.schema().table("U").isEmpty());
    final CompiledCatalog next = compiler.apply(base, new SourceFile("more.sql", "CREATE TABLE u (b INTEGER);"));
    assertTrue(next.schema().table("U").isPresent());
    assertTrue(base.schema().table("U").isEmpty());
  }

  private static void assertContains(DdlException e, String text) {
    assertTrue(e.getMessage().contains(text), e.getMessage());
  }
}
