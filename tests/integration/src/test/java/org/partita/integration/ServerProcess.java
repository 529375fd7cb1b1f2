package org.partita.integration;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real {@code partita start} server process on loopback with ephemeral
 * ports, for integration tests. {@link #close} stops it (SIGTERM, then
 * SIGKILL after 30 s) so a test that fails still leaves nothing running.
 */
final class ServerProcess implements AutoCloseable {
  static final Path ROOT = Path.of(System.getProperty("partita.root", "../..")).toAbsolutePath().normalize();
  static final Path VOTER_DDL = ROOT.resolve("bench/voter/ddl.sql");
  static final Path VOTER_CLASSES = ROOT.resolve("bench/voter/target/classes");
  private static final Pattern READY = Pattern.compile(
      "partita: ready: client port [^:]+:(\\d+)(?:, HTTP port [^:]+:(\\d+))?");
  private static final long START_TIMEOUT_SECONDS = 90;

  private final Process process;
  private final StringBuffer output = new StringBuffer();
  private final CountDownLatch ready = new CountDownLatch(1);
  private volatile int clientPort = -1;
  private volatile int httpPort = -1;

  private ServerProcess(Process process) {
    this.process = process;
    final Thread reader = new Thread(this::readOutput, "server-output-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts the Voter schema on {@code sites} sites. */
  static ServerProcess voter(int sites, String... extraArgs) throws IOException, InterruptedException {
    final List<String> args = new ArrayList<>(List.of("--schema", VOTER_DDL.toString(), "--classes",
        VOTER_CLASSES.toString(), "--sites", Integer.toString(sites)));
    args.addAll(List.of(extraArgs));
    return start(args);
  }

  /** Starts the schema of test resource {@code resource} (e.g. "/bank.sql") on {@code sites} sites. */
  static ServerProcess schema(String resource, int sites, String... extraArgs) throws IOException,
      InterruptedException {
    final java.net.URL url = ServerProcess.class.getResource(resource);
    if (url == null) {
      throw new IllegalArgumentException("no test resource " + resource);
    }
    final Path ddl;
    try {
      ddl = Path.of(url.toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalArgumentException(resource + ": " + e.getMessage(), e);
    }
    final List<String> args = new ArrayList<>(List.of("--schema", ddl.toString(), "--sites",
        Integer.toString(sites)));
    args.addAll(List.of(extraArgs));
    return start(args);
  }

  /** Starts {@code partita start --port 0 --http-port 0 ARGS}; returns once it printed its ready line. */
  static ServerProcess start(List<String> args) throws IOException, InterruptedException {
    final List<String> command = new ArrayList<>(partitaCommand());
    command.addAll(List.of("start", "--port", "0", "--http-port", "0", "--bind", "127.0.0.1"));
    command.addAll(args);
    final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    final ServerProcess server = new ServerProcess(builder.start());
    if (!server.ready.await(START_TIMEOUT_SECONDS, TimeUnit.SECONDS) || server.clientPort < 0) {
      server.close();
      throw new IllegalStateException("server did not become ready in " + START_TIMEOUT_SECONDS + " s:\n"
          + server.output());
    }
    return server;
  }

  /** The java command line of the partita launcher (what scripts/partita runs). */
  static List<String> partitaCommand() throws IOException {
    final Path target = ROOT.resolve("host-java/server/target");
    final String classpath = target.resolve("classes") + java.io.File.pathSeparator
        + Files.readString(target.resolve("classpath.txt"), StandardCharsets.UTF_8).trim();
    final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return List.of(java, "-Xmx1g", "-cp", classpath, "org.partita.server.cli.PartitaCli");
  }

  private void readOutput() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        output.append(line).append('\n');
        final Matcher m = READY.matcher(line);
        if (m.find()) {
          clientPort = Integer.parseInt(m.group(1));
          httpPort = m.group(2) == null ? -1 : Integer.parseInt(m.group(2));
          ready.countDown();
        }
      }
    } catch (IOException e) {
      output.append("(output read failed: ").append(e).append(")\n");
    } finally {
      ready.countDown();
    }
  }

  int clientPort() {
    return clientPort;
  }

  int httpPort() {
    return httpPort;
  }

  String address() {
    return "127.0.0.1:" + clientPort;
  }

  String output() {
    return output.toString();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Sends SIGTERM and waits for the exit code (SIGKILL after {@code seconds}). */
  int terminate(long seconds) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
      throw new IllegalStateException("server ignored SIGTERM for " + seconds + " s:\n" + output());
    }
    return process.exitValue();
  }

  /** Waits for the process to exit by itself; the exit code, or -1 if it is still running. */
  int awaitExit(long seconds) throws InterruptedException {
    return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : -1;
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }
}
