package org.partita.integration;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
      "partita: ready: client port ([^:]+):(\\d+)(?:, HTTP port [^:]+:(\\d+))?");
  private static final long START_TIMEOUT_SECONDS = 90;

  private final Process process;
  /** The process's stdout and stderr go to this file, not a pipe: a pipe's reader can lose the last lines. */
  private final Path log;
  /** Whether {@link #close} deletes {@link #log}: a temporary file this class made, not one the caller named. */
  private final boolean temporaryLog;
  private volatile String finalOutput;
  private volatile String clientHost = "127.0.0.1";
  private volatile int clientPort = -1;
  private volatile int httpPort = -1;

  private ServerProcess(Process process, Path log, boolean temporaryLog) {
    this.process = process;
    this.log = log;
    this.temporaryLog = temporaryLog;
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
    return start(args, java.util.Map.of());
  }

  /** As {@link #start(List)}, with {@code environment} added to the process's environment. */
  static ServerProcess start(List<String> args, java.util.Map<String, String> environment) throws IOException,
      InterruptedException {
    final ServerProcess server = spawn(args, environment);
    if (!server.awaitReady()) {
      server.close();
      throw new IllegalStateException("server did not become ready in " + START_TIMEOUT_SECONDS + " s:\n"
          + server.output());
    }
    return server;
  }

  /**
   * Starts {@code partita start --port 0 --http-port 0 ARGS} without
   * waiting for it to become ready (for a start that must fail).
   */
  static ServerProcess spawn(List<String> args) throws IOException {
    return spawn(args, java.util.Map.of());
  }

  /** As {@link #spawn(List)}, with {@code environment} added to the process's environment. */
  static ServerProcess spawn(List<String> args, java.util.Map<String, String> environment) throws IOException {
    final List<String> command = new ArrayList<>(partitaCommand());
    command.addAll(List.of("start", "--port", "0", "--http-port", "0", "--bind", "127.0.0.1"));
    command.addAll(args);
    final Path log = Files.createTempFile("partita-server-", ".log");
    final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    return new ServerProcess(builder.start(), log, true);
  }

  /**
   * Starts {@code partita start ARGS} exactly as given (no default port or
   * bind: a cluster host binds its own address), writing its output to
   * {@code log}, without waiting; {@link #awaitReadyLine} waits. The file
   * stays after {@link #close}: in a test's {@code @TempDir} kept on
   * failure, it is what the failure is diagnosed from.
   */
  static ServerProcess launch(List<String> args, Path log) throws IOException {
    return launch(args, log, java.util.Map.of());
  }

  /** As {@link #launch(List, Path)}, with {@code environment} added to the process's environment. */
  static ServerProcess launch(List<String> args, Path log, java.util.Map<String, String> environment)
      throws IOException {
    final List<String> command = new ArrayList<>(partitaCommand());
    command.add("start");
    command.addAll(args);
    final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    return new ServerProcess(builder.start(), log, false);
  }

  /** Waits for the ready line of a {@link #launch}ed process; false if it ended or the time ran out. */
  boolean awaitReadyLine() throws InterruptedException {
    return awaitReady();
  }

  /** Kills the process with SIGKILL (a crash: nothing runs on the way out) and waits for it to end. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("server survived SIGKILL for 30 s");
    }
  }

  /** Polls the output for the ready line; false if the process ends or the time runs out first. */
  private boolean awaitReady() throws InterruptedException {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
    while (System.nanoTime() < deadline) {
      final Matcher m = READY.matcher(output());
      if (m.find()) {
        clientHost = m.group(1);
        clientPort = Integer.parseInt(m.group(2));
        httpPort = m.group(3) == null ? -1 : Integer.parseInt(m.group(3));
        return true;
      }
      if (!process.isAlive()) {
        return false;
      }
      Thread.sleep(20);
    }
    return false;
  }

  /**
   * The java command line of the partita launcher (what scripts/partita runs), with C1 alone: three to five
   * host JVMs and the test's own share two cores, and C2's compiles slowed the cluster tests (FailoverTest
   * 223-225 s with C2, 195-198 s with C1 alone; ClusterTest 32-40 s against 27-28 s; back to back, A B B A).
   */
  static List<String> partitaCommand() throws IOException {
    final Path target = ROOT.resolve("host-java/server/target");
    final String classpath = target.resolve("classes") + java.io.File.pathSeparator
        + Files.readString(target.resolve("classpath.txt"), StandardCharsets.UTF_8).trim();
    final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return List.of(java, "-Xmx1g", "-XX:TieredStopAtLevel=1", "-cp", classpath, "org.partita.server.cli.PartitaCli");
  }

  int clientPort() {
    return clientPort;
  }

  /** The process id (for signals other than SIGTERM and SIGKILL: SIGSTOP, SIGCONT). */
  long pid() {
    return process.pid();
  }

  int httpPort() {
    return httpPort;
  }

  /** The client address the ready line names (a cluster host's own 127.0.0.N); REQUIRES: the ready line was seen. */
  String address() {
    return clientHost + ":" + clientPort;
  }

  /** Everything the process printed so far (stdout and stderr). */
  String output() {
    if (finalOutput != null) {
      return finalOutput;
    }
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(cannot read the server's output " + log + ": " + e + ")";
    }
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

  /**
   * Stops the process if it still runs and keeps its output in memory; deletes the output file if it is a temporary
   * one ({@link #spawn}).
   */
  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    }
    if (finalOutput == null) {
      finalOutput = output();
      if (!temporaryLog) {
        return;
      }
      try {
        Files.deleteIfExists(log);
      } catch (IOException e) {
        // a temporary file left behind is harmless
      }
    }
  }
}
