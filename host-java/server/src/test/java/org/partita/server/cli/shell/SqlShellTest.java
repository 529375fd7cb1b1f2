package org.partita.server.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientConfig;
import org.partita.client.PartitaClient;
import org.partita.server.cli.TestServers;
import org.partita.server.database.Database;
import org.partita.server.host.PartitaServer;
import org.partita.server.host.ServerOptions;
import org.partita.server.network.ConnectionLimits;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SqlShellTest {
  private static PartitaServer server;
  private static PartitaClient client;

  @TempDir
  Path dir;

  private record Run(int exitCode, String out, String err) {}

  @BeforeAll
  static void startServer() throws Exception {
    server = TestServers.start();
    client = new PartitaClient(ClientConfig.defaults());
    client.connect("127.0.0.1:" + server.clientPort());
  }

  @AfterAll
  static void stopServer() throws Exception {
    TestServers.stop(client, server);
  }

  private static Run run(String script, boolean stopOnError) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    final SqlShell shell = new SqlShell(client::call, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), false, stopOnError);
    final int code = shell.runScript(new BufferedReader(new StringReader(script)), "stdin");
    return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static Run run(String script) throws IOException {
    return run(script, false);
  }

  @Test
  void shouldPrintAnAlignedTableAfterDdlAndInserts() throws Exception {
    final Run r = run("CREATE TABLE fruit (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(20), price DECIMAL);\n"
        + "INSERT INTO fruit VALUES (1, 'apple', 1.5);\n"
        + "INSERT INTO fruit VALUES (10, 'pear', 2);\n"
        + "SELECT id, name, price FROM fruit ORDER BY id;\n");
    assertEquals("", r.err());
    assertEquals(0, r.exitCode());
    assertEquals("(1 row affected)\n(1 row affected)\n"
        + "ID  NAME   PRICE\n"
        + "--  -----  -----\n"
        + " 1  apple    1.5\n"
        + "10  pear       2\n"
        + "(2 rows)\n", r.out());
  }

  @Test
  void shouldCountRowsAffectedByUpdateAndDelete() throws Exception {
    final Run r = run("CREATE TABLE counted (id BIGINT NOT NULL PRIMARY KEY, n BIGINT);\n"
        + "INSERT INTO counted VALUES (1, 0), (2, 0), (3, 0);\n"
        + "UPDATE counted SET n = 1 WHERE id > 1;\n"
        + "DELETE FROM counted;\n");
    assertEquals("", r.err());
    assertEquals("(3 rows affected)\n(2 rows affected)\n(3 rows affected)\n", r.out());
  }

  @Test
  void shouldRunAStatementSpanningSeveralLines() throws Exception {
    final Run r = run("SELECT\n  'a' || 'b'\n    AS joined\n;\n");
    assertEquals("", r.err());
    assertEquals("JOINED\n------\nab\n(1 row)\n", r.out());
  }

  @Test
  void shouldRunAnUnterminatedLastStatementAtTheEndOfInput() throws Exception {
    final Run r = run("SELECT 7 AS seven");
    assertEquals("", r.err());
    assertTrue(r.out().contains("SEVEN\n-----\n    7\n(1 row)"), r.out());
  }

  @Test
  void shouldExecAProcedureWithTypedArguments() throws Exception {
    final Run r = run("exec AddItem 41, 'it''s here', 3.25\n"
        + "EXECUTE ItemById 41;\n");
    assertEquals("", r.err());
    assertEquals(0, r.exitCode());
    assertEquals("(1 row affected)\n"
        + "ID  NAME       PRICE\n"
        + "--  ---------  -----\n"
        + "41  it's here   3.25\n"
        + "(1 row)\n", r.out());
  }

  @Test
  void shouldReportAnUnterminatedExecArgument() throws Exception {
    final Run r = run("exec ItemById 'oops\nexec\n");
    assertEquals(1, r.exitCode());
    assertTrue(r.err().contains("ERROR: BAD_ARGUMENT: exec ItemById: unterminated string starting at column 2"
        + " of the arguments (at stdin:1)"), r.err());
    assertTrue(r.err().contains("ERROR: BAD_COMMAND: exec needs a procedure name: exec Procedure [arg ...] "
        + "(at stdin:2)"), r.err());
  }

  @Test
  void shouldRunTheStatementsAndCommandsOfNestedFiles() throws Exception {
    final Path inner = dir.resolve("inner.sql");
    Files.writeString(inner, "INSERT INTO filed VALUES (2);\nexec ItemById 999\n");
    final Path outer = dir.resolve("outer.sql");
    Files.writeString(outer, "CREATE TABLE filed (id BIGINT NOT NULL);\nINSERT INTO filed\n VALUES (1);\n"
        + "file " + inner + "\n");
    final Run r = run("file " + outer + ";\nSELECT COUNT(*) AS n FROM filed;\n");
    assertEquals("", r.err());
    assertEquals("(1 row affected)\n(1 row affected)\nID  NAME  PRICE\n--  ----  -----\n(0 rows)\n"
        + "N\n-\n2\n(1 row)\n", r.out());
  }

  @Test
  void shouldReportAMissingFileAndGoOn() throws Exception {
    final Path missing = dir.resolve("nope.sql");
    final Run r = run("file " + missing + "\nSELECT 1 AS one;\n");
    assertEquals(1, r.exitCode());
    assertEquals("ERROR: FILE_ERROR: no such file: " + missing + " (at stdin:1)\n", r.err());
    assertTrue(r.out().contains("ONE"), r.out());
  }

  @Test
  void shouldRefuseAFileThatRunsItself() throws Exception {
    final Path loop = dir.resolve("loop.sql");
    Files.writeString(loop, "file " + loop + "\n");
    final Run r = run("file " + loop + "\n");
    assertEquals(1, r.exitCode());
    assertTrue(r.err().contains("ERROR: FILE_ERROR: file " + loop + ": files nest deeper than 16 levels"), r.err());
  }

  @Test
  void shouldPrintTheServersErrorAndRunLaterStatements() throws Exception {
    final Run r = run("SELECT nope FROM items;\nSELECT 2 AS two;\n");
    assertEquals(1, r.exitCode());
    assertTrue(r.err().startsWith("ERROR: SQL_ERROR: "), r.err());
    assertTrue(r.err().contains("NOPE"), r.err());
    assertTrue(r.err().endsWith(" (at stdin:1)\n"), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.out().contains("TWO"), r.out());
  }

  @Test
  void shouldStopAtTheFirstFailureWithStopOnError() throws Exception {
    final Run r = run("SELECT 1 AS one;\nSELECT nope FROM items;\nSELECT 2 AS two;\n", true);
    assertEquals(1, r.exitCode());
    assertTrue(r.out().contains("ONE"), r.out());
    assertFalse(r.out().contains("TWO"), r.out());
  }

  @Test
  void shouldReportAConstraintViolationWithTheServersMessage() throws Exception {
    final Run r = run("exec AddItem 77 'x' 1\nexec AddItem 77 'y' 2\n");
    assertEquals(1, r.exitCode());
    assertTrue(r.err().startsWith("ERROR: CONSTRAINT_VIOLATION: "), r.err());
    assertTrue(r.err().contains("PK_ITEMS"), r.err());
  }

  @Test
  void shouldShowTablesAndProcedures() throws Exception {
    final Run r = run("show tables\nSHOW Procedures;\n");
    assertEquals("", r.err());
    assertTrue(r.out().contains("TABLE_NAME"), r.out());
    assertTrue(r.out().contains("ITEMS"), r.out());
    assertTrue(r.out().contains("PROCEDURE_NAME"), r.out());
    assertTrue(r.out().contains("ADDITEM"), r.out());
  }

  @Test
  void shouldReportAnUnknownShowSelector() throws Exception {
    final Run r = run("show everything\n");
    assertEquals(1, r.exitCode());
    assertTrue(r.err().startsWith("ERROR: BAD_PARAMETER: "), r.err());
    assertTrue(r.err().contains("TABLES"), r.err());
  }

  @Test
  void shouldExplainAStatementAsItsPlanLines() throws Exception {
    final Run r = run("explain SELECT name FROM items WHERE id = 5;\n");
    assertEquals("", r.err());
    assertTrue(r.out().startsWith("SINGLE PARTITION"), r.out());
    assertTrue(r.out().contains("INDEX SCAN ITEMS"), r.out());
  }

  @Test
  void shouldStopReadingAtQuit() throws Exception {
    final Run r = run("SELECT 1 AS one;\nQUIT\nSELECT 2 AS two;\n");
    assertEquals(0, r.exitCode());
    assertFalse(r.out().contains("TWO"), r.out());
  }

  @Test
  void shouldListTheSessionsHistory() throws Exception {
    final Run r = run("SELECT 1\n AS one;\nhelp\nhistory\n");
    assertTrue(r.out().contains("    1  SELECT 1\n        AS one;\n    2  help\n    3  history\n"), r.out());
    assertTrue(r.out().contains("exec Procedure [arg ...]"), r.out());
  }

  @Test
  void shouldSayTheConnectionDroppedAndWorkAgainOnceTheServerIsBack() throws Exception {
    PartitaServer other = TestServers.start();
    final int port = other.clientPort();
    final ClientConfig config = ClientConfig.builder()
        .reconnectBackoff(Duration.ofMillis(20), Duration.ofMillis(100)).build();
    try (PartitaClient reconnecting = new PartitaClient(config)) {
      reconnecting.connect("127.0.0.1:" + port);
      final ByteArrayOutputStream out = new ByteArrayOutputStream();
      final ByteArrayOutputStream err = new ByteArrayOutputStream();
      final SqlShell shell = new SqlShell(reconnecting::call, new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8), false, false);
      other.shutdown();
      shell.accept("SELECT 1 AS one;");
      final String error = err.toString(StandardCharsets.UTF_8);
      assertTrue(error.startsWith("ERROR: CONNECTION_LOST: ") || error.startsWith("ERROR: NO_CONNECTION: "), error);
      assertTrue(error.contains("127.0.0.1:" + port), error);
      assertEquals(1, error.lines().count(), error);
      assertEquals(1, shell.exitCode());

      other = PartitaServer.start(new ServerOptions(List.of(TestServers.schema()), List.of(), 1, "127.0.0.1", port,
          -1, null, null, ConnectionLimits.defaults(), Database.DEFAULT_SITE_QUEUE_CAPACITY, 1));
      while (reconnecting.connectedServers().isEmpty()) {
        Thread.sleep(10);
      }
      shell.accept("SELECT 2 AS two;");
      assertTrue(out.toString(StandardCharsets.UTF_8).contains("TWO\n---\n  2\n(1 row)"),
          out.toString(StandardCharsets.UTF_8));
      assertEquals(1, err.toString(StandardCharsets.UTF_8).lines().count());
    } finally {
      other.shutdown();
    }
  }

  @Test
  void shouldTimeStatementsAndConfirmDdlWhenInteractive() {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    final SqlShell shell = new SqlShell(client::call, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), true, false);
    shell.accept("CREATE TABLE typed (id BIGINT NOT NULL);");
    shell.accept("SELECT nope");
    assertTrue(shell.continuing());
    shell.cancelStatement();
    assertFalse(shell.continuing());
    shell.accept("SELECT nope FROM typed;");
    assertTrue(out.toString(StandardCharsets.UTF_8).matches("OK\nTime: [0-9]+\\.[0-9]{3} ms\n"),
        out.toString(StandardCharsets.UTF_8));
    assertEquals("ERROR: SQL_ERROR: unknown column NOPE\n", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void shouldTreatCommandWordsInsideAStatementAsSql() throws Exception {
    final Run r = run("SELECT\nexec FROM items;\n");
    assertEquals(1, r.exitCode());
    assertTrue(r.err().startsWith("ERROR: SQL_ERROR: "), r.err());
  }
}
