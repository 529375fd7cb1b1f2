package org.partita.server.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientConfig;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;
import org.partita.server.cli.TestServers;
import org.partita.server.host.PartitaServer;

/**
 * Ctrl-C in the interactive shell while a statement runs stops the
 * statement on the server (@CancelQuery), and the shell goes on. The
 * terminal is JLine's over pipes; Ctrl-C is raised on it as the terminal
 * would on SIGINT.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InteractiveShellTest {
  private static final String SHELL_CLIENT = "ctrl-c-shell";
  private static PartitaServer server;
  private static PartitaClient client;

  @BeforeAll
  static void startServer() throws Exception {
    server = TestServers.start();
    client = new PartitaClient(ClientConfig.builder().clientName(SHELL_CLIENT).build());
    client.connect("127.0.0.1:" + server.clientPort());
  }

  @AfterAll
  static void stopServer() throws Exception {
    TestServers.stop(client, server);
  }

  @Test
  void shouldCancelTheRunningStatementOnCtrlCAndGoOn() throws Exception {
    final PipedOutputStream keys = new PipedOutputStream();
    final ByteArrayOutputStream screen = new ByteArrayOutputStream();
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    final AtomicInteger exit = new AtomicInteger(-1);
    try (Terminal terminal = TerminalBuilder.builder().system(false).type("dumb")
        .streams(new PipedInputStream(keys), screen).build()) {
      final SqlShell shell = new SqlShell((procedure, parameters) -> client.call(procedure, parameters),
          new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
          true, false);
      final Thread running = new Thread(() -> exit.set(InteractiveShell.run(terminal, shell, null,
          () -> client.callAsync("@CancelQuery"))), "shell");
      running.start();
      final StringBuilder values = new StringBuilder();
      for (int x = 0; x < 300; x++) {
        values.append(x == 0 ? "" : ", ").append('(').append(x).append(')');
      }
      type(keys, "CREATE TABLE ctrl_c (x INTEGER NOT NULL);\nINSERT INTO ctrl_c VALUES " + values + ";\n"
          + "SELECT COUNT(*) FROM ctrl_c a, ctrl_c b, ctrl_c c, ctrl_c d WHERE a.x + b.x + c.x + d.x < 0;\n");
      awaitRunning(out);
      terminal.raise(Terminal.Signal.INT);
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!err.toString(StandardCharsets.UTF_8).contains("CANCELLED")) {
        assertTrue(System.nanoTime() < deadline, "Ctrl-C never cancelled the statement: " + err);
        Thread.sleep(20);
      }
      type(keys, "SELECT 7 AS alive;\n");
      while (!out.toString(StandardCharsets.UTF_8).contains("ALIVE")) {
        assertTrue(System.nanoTime() < deadline, "the shell did not go on: " + out);
        Thread.sleep(20);
      }
      keys.close();
      running.join(TimeUnit.SECONDS.toMillis(30));
    }
    assertTrue(err.toString(StandardCharsets.UTF_8).contains(
        "ERROR: CANCELLED: @AdHoc: cancelled while running; the transaction was rolled back"), err::toString);
    assertEquals(1, exit.get(), "a statement failed");
  }

  /**
   * Waits until the shell printed the INSERT's answer and the server has its
   * next call (the cross join) in flight: the statement runs, so Ctrl-C now
   * meets it (not the line reader).
   */
  private static void awaitRunning(ByteArrayOutputStream out) throws Exception {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    try (PartitaClient observer = new PartitaClient(ClientConfig.builder().clientName("observer").build())) {
      observer.connect("127.0.0.1:" + server.clientPort());
      while (!(out.toString(StandardCharsets.UTF_8).contains("300") && shellCallsInFlight(observer) == 1)) {
        assertTrue(System.nanoTime() < deadline, "the cross join never started: " + out);
        Thread.sleep(20);
      }
    }
  }

  private static long shellCallsInFlight(PartitaClient observer) {
    final ResultTable connections = observer.call("@Statistics", "CONNECTIONS").results().get(0);
    while (connections.advanceRow()) {
      if (SHELL_CLIENT.equals(connections.getString(connections.columnIndex("CLIENT_NAME")))) {
        return connections.getLong(connections.columnIndex("CALLS_IN_FLIGHT"));
      }
    }
    return -1;
  }

  private static void type(PipedOutputStream keys, String text) throws java.io.IOException {
    keys.write(text.getBytes(StandardCharsets.UTF_8));
    keys.flush();
  }
}
