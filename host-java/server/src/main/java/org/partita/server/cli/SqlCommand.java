package org.partita.server.cli;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.partita.client.ClientConfig;
import org.partita.client.PartitaClient;
import org.partita.client.PartitaClientException;
import org.partita.server.cli.shell.InteractiveShell;
import org.partita.server.cli.shell.SqlShell;
import org.partita.server.host.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;

/**
 * {@code partita sql}: the SQL shell. Interactive (line editing, history,
 * timings) when standard input and output are a terminal; otherwise it runs
 * the statements of standard input or {@code --file} and prints only
 * results and errors. Exit code 0 when everything succeeded, 1 when a
 * statement or command failed, 2 when it cannot connect.
 */
@Command(name = "sql", mixinStandardHelpOptions = true,
    description = {"Run SQL statements and shell commands against a server: interactively at a terminal, "
        + "or from standard input or a file.",
        "Exit code: 0 all succeeded, 1 a statement or command failed, 2 cannot connect."})
final class SqlCommand implements Callable<Integer> {
  static final int EXIT_CANNOT_CONNECT = 2;
  private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  /** Held so the level set on it stays (loggers are weakly referenced). */
  private static final Logger CLIENT_LOG = Logger.getLogger("org.partita.client");

  @Option(names = "--servers", paramLabel = "HOST:PORT", split = ",",
      description = "servers to connect to, comma-separated (default: 127.0.0.1:" + ServerOptions.DEFAULT_CLIENT_PORT
          + ")")
  private List<String> servers = List.of("127.0.0.1:" + ServerOptions.DEFAULT_CLIENT_PORT);

  @Option(names = "--file", paramLabel = "FILE", description = "run the statements and commands of FILE "
      + "instead of reading standard input")
  private Path file;

  @Option(names = "--stop-on-error", description = "stop at the first statement or command that fails")
  private boolean stopOnError;

  @Option(names = "--timeout", paramLabel = "SECONDS", description = "how long each statement may take "
      + "before the shell gives up on it (default: ${DEFAULT-VALUE})")
  private int timeoutSeconds = 120;

  @Spec
  private CommandSpec spec;

  private final InputStream in;
  private final PrintStream out;
  private final PrintStream err;
  private final boolean terminal;

  SqlCommand() {
    this(System.in, System.out, System.err, System.console() != null);
  }

  /** For tests: explicit streams, and whether they are a terminal. */
  SqlCommand(InputStream in, PrintStream out, PrintStream err, boolean terminal) {
    this.in = in;
    this.out = out;
    this.err = err;
    this.terminal = terminal;
  }

  @Override
  public Integer call() throws Exception {
    if (timeoutSeconds < 1) {
      throw new ParameterException(spec.commandLine(), "--timeout must be at least 1 second, got " + timeoutSeconds);
    }
    CLIENT_LOG.setLevel(Level.SEVERE);
    final Duration timeout = Duration.ofSeconds(timeoutSeconds);
    final ClientConfig config = ClientConfig.builder().clientName("partita-sql").callTimeout(timeout)
        .connectTimeout(timeout.compareTo(MAX_CONNECT_TIMEOUT) < 0 ? timeout : MAX_CONNECT_TIMEOUT)
        .reconnect(true).ioThreads(1).build();
    try (PartitaClient client = new PartitaClient(config)) {
      final List<String> connected = connect(client);
      if (connected.isEmpty()) {
        return EXIT_CANNOT_CONNECT;
      }
      final boolean interactive = terminal && file == null;
      final SqlShell shell = new SqlShell((procedure, parameters) -> client.call(procedure, parameters), out, err,
          interactive, stopOnError);
      if (file != null) {
        return shell.runFile(file.toString());
      }
      if (interactive) {
        out.println("Connected to " + String.join(", ", connected) + ". Type help for commands, quit to leave.");
        return InteractiveShell.run(shell, Path.of(System.getProperty("user.home"), ".partita_history"));
      }
      return shell.runScript(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)), "stdin");
    }
  }

  /** Connects to every server it can; reports each it cannot. Returns the servers connected. */
  private List<String> connect(PartitaClient client) {
    final List<String> connected = new ArrayList<>();
    for (String server : servers) {
      try {
        client.connect(server.strip());
        connected.add(server.strip());
      } catch (PartitaClientException | IllegalArgumentException e) {
        err.println("ERROR: CANNOT_CONNECT: " + e.getMessage());
      }
    }
    err.flush();
    return connected;
  }
}
