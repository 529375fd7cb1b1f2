package org.partita.server.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.partita.client.ClientConfig;
import org.partita.client.ConnectionLostException;
import org.partita.client.PartitaClient;
import org.partita.client.PartitaClientException;
import org.partita.server.host.PartitaServer;
import org.partita.server.host.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code partita stop}: asks a server to shut down gracefully
 * ({@code @Shutdown}) and waits until it has: until its client port refuses
 * connections, or with {@code --data-dir} until its process file is gone.
 * Exit code 1 when the server cannot be reached or does not stop in time.
 */
@Command(name = "stop", mixinStandardHelpOptions = true,
    description = {"Ask a server to shut down gracefully (@Shutdown) and wait until it has stopped.",
        "Exit code: 0 stopped, 1 cannot reach the server or it did not stop within the timeout."})
final class StopCommand implements Callable<Integer> {
  private static final Duration POLL = Duration.ofMillis(100);
  private static final int PROBE_TIMEOUT_MILLIS = 500;
  private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  /** Held so the level set on it stays (loggers are weakly referenced). */
  private static final Logger CLIENT_LOG = Logger.getLogger("org.partita.client");

  @Spec
  private CommandSpec spec;

  @Mixin
  private ClientLoginArgs login = new ClientLoginArgs();

  @Option(names = "--servers", paramLabel = "HOST:PORT", description = "the server to stop (default: the "
      + "address in --data-dir's process file, else 127.0.0.1:" + ServerOptions.DEFAULT_CLIENT_PORT + ")")
  private String server;

  @Option(names = "--data-dir", paramLabel = "DIR", description = "the server's --data-dir: read its address "
      + "from DIR/" + PartitaServer.PROCESS_FILE + " and wait until that file is gone")
  private Path dataDir;

  @Option(names = "--timeout", paramLabel = "SECONDS", description = "how long to wait for the server to stop "
      + "(default: ${DEFAULT-VALUE})")
  private int timeoutSeconds = 60;

  private final PrintStream out;
  private final PrintStream err;

  StopCommand() {
    this(System.out, System.err);
  }

  /** For tests: explicit output streams. */
  StopCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() throws Exception {
    if (timeoutSeconds < 1) {
      throw new ParameterException(spec.commandLine(), "--timeout must be at least 1 second, got " + timeoutSeconds);
    }
    final Path processFile = dataDir == null ? null : dataDir.resolve(PartitaServer.PROCESS_FILE);
    final String address = server != null ? server.strip() : processFile != null ? readAddress(processFile)
        : "127.0.0.1:" + ServerOptions.DEFAULT_CLIENT_PORT;
    if (address == null) {
      return 1;
    }
    final Duration timeout = Duration.ofSeconds(timeoutSeconds);
    final long deadline = System.nanoTime() + timeout.toNanos();
    try {
      requestShutdown(address, timeout, login);
    } catch (PartitaClientException | IllegalArgumentException e) {
      err.println("partita stop: cannot reach the server at " + address + ": " + e.getMessage());
      return 1;
    }
    out.println("partita stop: asked the server at " + address + " to shut down; waiting up to " + timeoutSeconds
        + " s" + (processFile != null ? " for " + processFile + " to disappear" : " for its port to close"));
    out.flush();
    final boolean stopped = processFile != null ? awaitGone(processFile, deadline) : awaitRefused(address, deadline);
    if (!stopped) {
      err.println("partita stop: the server at " + address + " did not stop within " + timeoutSeconds + " s");
      return 1;
    }
    out.println("partita stop: the server at " + address + " has stopped");
    return 0;
  }

  /** The host:port of the process file, or null (after saying why) when there is none. */
  private String readAddress(Path processFile) throws IOException {
    final Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(processFile, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (NoSuchFileException e) {
      err.println("partita stop: no " + processFile + ": no server is running with --data-dir " + dataDir);
      return null;
    }
    final String host = p.getProperty("host");
    final String port = p.getProperty("clientPort");
    if (host == null || port == null) {
      err.println("partita stop: " + processFile + " names no host and clientPort; pass --servers HOST:PORT");
      return null;
    }
    final String reachable = host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
    return (reachable.contains(":") ? "[" + reachable + "]" : reachable) + ":" + port.strip();
  }

  private static void requestShutdown(String address, Duration timeout, ClientLoginArgs login) {
    CLIENT_LOG.setLevel(Level.SEVERE);
    final ClientConfig config = login.apply(ClientConfig.builder().clientName("partita-stop").reconnect(false)
        .ioThreads(1).connectTimeout(timeout.compareTo(MAX_CONNECT_TIMEOUT) < 0 ? timeout : MAX_CONNECT_TIMEOUT)
        .callTimeout(timeout)).build();
    try (PartitaClient client = new PartitaClient(config)) {
      client.connect(address);
      client.call("@Shutdown");
    } catch (ConnectionLostException e) {
      // The server closed the connection before its answer arrived: it is stopping; wait for it below.
      return;
    }
  }

  private static boolean awaitGone(Path processFile, long deadline) throws InterruptedException {
    while (Files.exists(processFile)) {
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      Thread.sleep(POLL.toMillis());
    }
    return true;
  }

  private static boolean awaitRefused(String address, long deadline) throws InterruptedException {
    final InetSocketAddress target = socketAddress(address);
    while (System.nanoTime() - deadline < 0) {
      try (Socket probe = new Socket()) {
        probe.connect(target, PROBE_TIMEOUT_MILLIS);
      } catch (ConnectException e) {
        return true;
      } catch (IOException e) {
        // Timed out or unreachable for now: keep probing until the deadline.
      }
      Thread.sleep(POLL.toMillis());
    }
    return false;
  }

  /** "host:port", "[v6]:port" or "host" (default port) as a socket address. */
  static InetSocketAddress socketAddress(String address) {
    final String host;
    final String port;
    if (address.startsWith("[")) {
      final int close = address.indexOf(']');
      host = address.substring(1, close);
      port = address.length() > close + 2 ? address.substring(close + 2) : null;
    } else if (address.indexOf(':') >= 0 && address.indexOf(':') == address.lastIndexOf(':')) {
      host = address.substring(0, address.indexOf(':'));
      port = address.substring(address.indexOf(':') + 1);
    } else {
      host = address;
      port = null;
    }
    return new InetSocketAddress(host, port == null ? ClientConfig.DEFAULT_PORT : Integer.parseInt(port));
  }
}
