package org.partita.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.server.host.PartitaServer;
import picocli.CommandLine;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SqlCommandTest {
  private static PartitaServer server;

  @TempDir
  Path dir;

  private record Run(int exitCode, String out, String err) {}

  @BeforeAll
  static void startServer() throws Exception {
    server = TestServers.start();
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      server.shutdown();
    }
  }

  private static Run sql(String stdin, String... args) {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    final SqlCommand command = new SqlCommand(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), false);
    final int code = new CommandLine(command)
        .setErr(new PrintWriter(new PrintStream(err, true, StandardCharsets.UTF_8), true)).execute(args);
    return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static String here() {
    return "127.0.0.1:" + server.clientPort();
  }

  private static int closedPort() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  @Test
  void shouldRunStandardInputAndPrintOnlyResults() {
    final Run r = sql("SELECT 40 + 2 AS answer;\n", "--servers", here());
    assertEquals(0, r.exitCode(), r.err());
    assertEquals("ANSWER\n------\n    42\n(1 row)\n", r.out());
    assertEquals("", r.err());
  }

  @Test
  void shouldExitOneWhenAStatementFails() {
    final Run r = sql("SELECT nope FROM items;\nSELECT 1 AS one;\n", "--servers", here());
    assertEquals(1, r.exitCode());
    assertTrue(r.err().startsWith("ERROR: SQL_ERROR: "), r.err());
    assertTrue(r.out().contains("ONE"), r.out());
  }

  @Test
  void shouldRunAFileAndStopAtItsFirstErrorWithStopOnError() throws Exception {
    final Path script = dir.resolve("script.sql");
    Files.writeString(script, "SELECT 1 AS one;\nSELECT nope FROM items;\nSELECT 2 AS two;\n");
    final Run r = sql("SELECT 3 AS three;\n", "--servers", here(), "--file", script.toString(), "--stop-on-error");
    assertEquals(1, r.exitCode());
    assertTrue(r.out().contains("ONE"), r.out());
    assertFalse(r.out().contains("TWO"), r.out());
    assertFalse(r.out().contains("THREE"), "reads the file, not standard input: " + r.out());
    assertTrue(r.err().contains("(at " + script + ":2)"), r.err());
  }

  @Test
  void shouldExitTwoWhenItCannotConnect() throws Exception {
    final int port = closedPort();
    final Run r = sql("SELECT 1;\n", "--servers", "127.0.0.1:" + port);
    assertEquals(SqlCommand.EXIT_CANNOT_CONNECT, r.exitCode());
    assertTrue(r.err().startsWith("ERROR: CANNOT_CONNECT: cannot connect to 127.0.0.1:" + port), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertEquals("", r.out());
  }

  @Test
  void shouldGoOnWithTheServersItCanReach() throws Exception {
    final int port = closedPort();
    final Run r = sql("SELECT 5 AS five;\n", "--servers", "127.0.0.1:" + port + "," + here());
    assertEquals(0, r.exitCode(), r.err());
    assertTrue(r.err().contains("CANNOT_CONNECT"), r.err());
    assertTrue(r.out().contains("FIVE"), r.out());
  }

  @Test
  void shouldRejectAMalformedServerAddress() {
    final Run r = sql("", "--servers", "127.0.0.1:notaport");
    assertEquals(SqlCommand.EXIT_CANNOT_CONNECT, r.exitCode());
    assertTrue(r.err().startsWith("ERROR: CANNOT_CONNECT: "), r.err());
    assertTrue(r.err().contains("notaport"), r.err());
  }

  @Test
  void shouldRejectATimeoutOutOfRange() {
    final Run zero = sql("", "--servers", here(), "--timeout", "0");
    assertEquals(2, zero.exitCode());
    assertTrue(zero.err().contains("--timeout must be from 1 to 3600 seconds, got 0"), zero.err());
    final Run over = sql("", "--servers", here(), "--timeout", "3601");
    assertEquals(2, over.exitCode());
    assertTrue(over.err().contains("--timeout must be from 1 to 3600 seconds, got 3601"), over.err());
  }

  @Test
  void shouldHaveTheServerStopAStatementAtTheShellsTimeout() {
    final StringBuilder values = new StringBuilder();
    for (int x = 0; x < 300; x++) {
      values.append(x == 0 ? "" : ", ").append('(').append(x).append(')');
    }
    final String script = "CREATE TABLE shell_timeout (x INTEGER NOT NULL);\n"
        + "INSERT INTO shell_timeout VALUES " + values + ";\n"
        + "SELECT COUNT(*) FROM shell_timeout a, shell_timeout b, shell_timeout c, shell_timeout d"
        + " WHERE a.x + b.x + c.x + d.x < 0;\n"
        + "SELECT COUNT(*) AS still_there FROM shell_timeout;\n";
    final Run r = sql(script, "--servers", here(), "--timeout", "1");
    assertEquals(1, r.exitCode(), r.err());
    assertTrue(r.err().startsWith("ERROR: TRANSACTION_TIMEOUT: "), r.err());
    assertTrue(r.err().contains("past its time limit of 1.000 s"), r.err());
    assertTrue(r.out().contains("STILL_THERE"), "the shell went on: " + r.out());
  }

  @Test
  void shouldHelpNamingEveryOption() {
    final StringWriter text = new StringWriter();
    final CommandLine cli = new CommandLine(new PartitaCli()).setOut(new PrintWriter(text));
    assertEquals(0, cli.execute("sql", "--help"));
    for (String option : new String[] {"--servers", "--file", "--stop-on-error", "--timeout", "--help"}) {
      assertTrue(text.toString().contains(option), option + " in\n" + text);
    }
  }

  @Test
  void shouldListEverySubcommandInTheTopLevelHelp() {
    final StringWriter text = new StringWriter();
    final CommandLine cli = new CommandLine(new PartitaCli()).setOut(new PrintWriter(text));
    assertEquals(0, cli.execute("--help"));
    for (String command : new String[] {"start", "compile", "sql", "stop"}) {
      assertTrue(text.toString().lines().anyMatch(l -> l.strip().startsWith(command + " ") && l.length() > 20),
          command + " with a description in\n" + text);
    }
  }

  @Test
  void shouldHelpOnStart() {
    final StringWriter text = new StringWriter();
    final CommandLine cli = new CommandLine(new PartitaCli()).setOut(new PrintWriter(text));
    assertEquals(0, cli.execute("start", "--help"));
    assertTrue(text.toString().contains("--schema"), text.toString());
    assertTrue(text.toString().contains("--data-dir"), text.toString());
  }
}
