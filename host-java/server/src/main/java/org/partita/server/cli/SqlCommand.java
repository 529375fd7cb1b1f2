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
import picocli.CommandLine.Mixin;
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
  /** How much longer than a statement's server limit the shell waits for the answer. */
  static final int ANSWER_GRACE_SECONDS = 5;
  /** How long the shell waits for a statement without --timeout (the server applies its own limit). */
  static final int DEFAULT_WAIT_SECONDS = 120;
  /** The longest --timeout: the server's longest per-call limit, 1 hour. */
  static final int MAX_TIMEOUT_SECONDS = 3600;
  /** Held so the level set on it stays (loggers are weakly referenced). */
  private static final Logger CLIENT_LOG = Logger.getLogger("org.partita.client");

  @Mixin
  private ClientLoginArgs login = new ClientLoginArgs();

  @Option(names = "--servers", paramLabel = "HOST:PORT", split = ",",
      description = "servers to connect to, comma-separated (default: 127.0.0.1:" + ServerOptions.DEFAULT_CLIENT_PORT
          + ")")
  private List<String> servers = List.of("127.0.0.1:" + ServerOptions.DEFAULT_CLIENT_PORT);

  @Option(names = "--file", paramLabel = "FILE", description = "run the statements and commands of FILE "
      + "instead of reading standard input")
  private Path file;

  @Option(names = "--stop-on-error", description = "stop at the first statement or command that fails")
  private boolean stopOnError;

  @Option(names = "--timeout", paramLabel = "SECONDS", description = "time limit of each statement on the "
      + "server (past it the server rolls it back and answers TRANSACTION_TIMEOUT), 1 to 3600; the shell waits "
      + SqlCommand.ANSWER_GRACE_SECONDS + " s longer for the answer (default: the server's --query-timeout, "
      + "waiting up to " + SqlCommand.DEFAULT_WAIT_SECONDS + " s)")
  private Integer timeoutSeconds;

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
    if (timeoutSeconds != null && (timeoutSeconds < 1 || timeoutSeconds > MAX_TIMEOUT_SECONDS)) {
      throw new ParameterException(spec.commandLine(), "--timeout must be from 1 to " + MAX_TIMEOUT_SECONDS
          + " seconds, got " + timeoutSeconds);
    }
    CLIENT_LOG.setLevel(Level.SEVERE);
    final Duration limit = timeoutSeconds == null ? Duration.ZERO : Duration.ofSeconds(timeoutSeconds);
    final Duration wait = timeoutSeconds == null ? Duration.ofSeconds(DEFAULT_WAIT_SECONDS)
        : limit.plusSeconds(ANSWER_GRACE_SECONDS);
    final ClientConfig config;
    try {
      config = login.apply(ClientConfig.builder().clientName("partita-sql").callTimeout(wait).queryTimeout(limit)
          .connectTimeout(wait.compareTo(MAX_CONNECT_TIMEOUT) < 0 ? wait : MAX_CONNECT_TIMEOUT)
          .reconnect(true).ioThreads(1)).build();
    } catch (IllegalArgumentException e) {
      err.println("partita sql: " + e.getMessage());
      return EXIT_CANNOT_CONNECT;
    }
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
        return InteractiveShell.run(shell, Path.of(System.getProperty("user.home"), ".partita_history"),
            () -> cancelRunning(client));
      }
      return shell.runScript(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)), "stdin");
    }
  }

  /**
   * Ctrl-C while a statement runs: asks the server to stop this shell's
   * running calls ({@code @CancelQuery()}, rolled back and answered
   * CANCELLED). Does not wait: the statement's own answer says what happened.
   */
  private void cancelRunning(PartitaClient client) {
    err.println("Cancelling the running statement (@CancelQuery)...");
    err.flush();
    client.callAsync("@CancelQuery");
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
