package org.partita.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.proto.Catalog;
import org.partita.proto.CatalogFile;
import org.partita.proto.Procedure;
import org.partita.server.compiler.CatalogFileCodec;
import picocli.CommandLine;

class CompileCommandTest {
  @TempDir
  Path dir;

  private int run(ByteArrayOutputStream out, ByteArrayOutputStream err, String... args) {
    final PrintStream oldOut = System.out;
    final PrintStream oldErr = System.err;
    System.setOut(new PrintStream(out, true));
    System.setErr(new PrintStream(err, true));
    try {
      return new CommandLine(new PartitaCli()).execute(args);
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  @Test
  void shouldWriteACatalogTheEngineLoadsAndExplainPlans() throws Exception {
    final Path ddl = dir.resolve("s.sql");
    Files.writeString(ddl, "CREATE TABLE kv (k VARCHAR(32) NOT NULL PRIMARY KEY, v VARBINARY(1024));\n"
        + "PARTITION TABLE kv ON COLUMN k;\n"
        + "CREATE PROCEDURE Get PARTITION ON TABLE kv COLUMN k AS SELECT v FROM kv WHERE k = ?;\n");
    final Path out = dir.resolve("c.catalog");
    final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    assertEquals(0, run(stdout, new ByteArrayOutputStream(), "compile", "--explain", "-o", out.toString(),
        ddl.toString()));
    final CatalogFile file = CatalogFileCodec.decode(Files.readAllBytes(out));
    final Catalog catalog = file.getCatalog();
    assertEquals(1, catalog.getTablesCount());
    assertEquals(1, catalog.getStatementsCount());
    final Procedure get = file.getProcedures(0);
    assertEquals("GET", get.getName());
    assertEquals("GET.SQL", get.getStatements(0).getName());
    assertTrue(get.getSingleStatement());
    assertTrue(get.getSinglePartition());
    assertEquals(0, get.getPartitionParameter());
    assertEquals("K", get.getPartitionColumn().toUpperCase(java.util.Locale.ROOT));
    assertTrue(stdout.toString().contains("INDEX SCAN KV using PK_KV key (?1)"), stdout.toString());
  }

  @Test
  void shouldReportCompileErrorsWithTheirPosition() throws Exception {
    final Path ddl = dir.resolve("bad.sql");
    Files.writeString(ddl, "CREATE TABLE t (a INTEGER);\nPARTITION TABLE t ON COLUMN b;\n");
    final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    assertEquals(1, run(new ByteArrayOutputStream(), stderr, "compile", "-o", dir.resolve("x.pb").toString(),
        ddl.toString()));
    assertTrue(stderr.toString().contains("bad.sql:2:"), stderr.toString());
    assertTrue(stderr.toString().contains("has no column B"), stderr.toString());
  }

  @Test
  void shouldHelpOnEverySubcommand() {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(0, run(out, new ByteArrayOutputStream(), "compile", "--help"));
    assertTrue(out.toString().contains("--explain"));
  }
}
