package org.partita.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.server.database.Database;
import org.partita.server.host.PartitaServer;
import org.partita.server.host.ServerOptions;
import org.partita.server.network.ConnectionLimits;
import picocli.CommandLine;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StopCommandTest {
  @TempDir
  Path dir;

  private record Run(int exitCode, String out, String err) {}

  private static Run stop(String... args) {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    final StopCommand command = new StopCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    final int code = new CommandLine(command)
        .setErr(new PrintWriter(new PrintStream(err, true, StandardCharsets.UTF_8), true)).execute(args);
    return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void shouldShutAServerDownByItsAddress() throws Exception {
    final PartitaServer server = TestServers.start();
    try {
      final String address = "127.0.0.1:" + server.clientPort();
      final Run r = stop("--servers", address, "--timeout", "30");
      assertEquals(0, r.exitCode(), r.err());
      assertTrue(r.out().contains("asked the server at " + address + " to shut down"), r.out());
      assertTrue(r.out().contains("the server at " + address + " has stopped"), r.out());
      server.awaitStopped();
    } finally {
      server.shutdown();
    }
  }

  @Test
  void shouldFindTheServerThroughItsDataDirAndWaitForItsProcessFile() throws Exception {
    final Path data = dir.resolve("data");
    final PartitaServer server = PartitaServer.start(new ServerOptions(List.of(TestServers.schema()), List.of(), 1,
        "127.0.0.1", 0, -1, data, null, ConnectionLimits.defaults(), Database.DEFAULT_SITE_QUEUE_CAPACITY, 1));
    try {
      assertTrue(Files.exists(data.resolve(PartitaServer.PROCESS_FILE)));
      final Run r = stop("--data-dir", data.toString(), "--timeout", "30");
      assertEquals(0, r.exitCode(), r.err());
      assertTrue(r.out().contains("127.0.0.1:" + server.clientPort() + " has stopped"), r.out());
      assertFalse(Files.exists(data.resolve(PartitaServer.PROCESS_FILE)));
      server.awaitStopped();
    } finally {
      server.shutdown();
    }
  }

  @Test
  void shouldReportAServerItCannotReach() throws Exception {
    final int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    final Run r = stop("--servers", "127.0.0.1:" + port, "--timeout", "5");
    assertEquals(1, r.exitCode());
    assertTrue(r.err().startsWith("partita stop: cannot reach the server at 127.0.0.1:" + port + ": "), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
  }

  @Test
  void shouldReportADataDirWithoutAProcessFile() {
    final Run r = stop("--data-dir", dir.toString());
    assertEquals(1, r.exitCode());
    assertTrue(r.err().contains("no server is running with --data-dir " + dir), r.err());
  }

  @Test
  void shouldHelpNamingEveryOption() {
    final StringWriter text = new StringWriter();
    final CommandLine cli = new CommandLine(new PartitaCli()).setOut(new PrintWriter(text));
    assertEquals(0, cli.execute("stop", "--help"));
    for (String option : new String[] {"--servers", "--data-dir", "--timeout", "--help"}) {
      assertTrue(text.toString().contains(option), option + " in\n" + text);
    }
  }
}
