package org.partita.fault;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * One Partita host on 127.0.0.1: {@code scripts/partita start --schema …
 * --classes … --data-dir RUN/data --command-log sync} (or the run's
 * {@code --command-log}) on a client port
 * chosen once per run (so clients reconnect to the same address after a
 * restart), no HTTP. Each start's output goes to {@code RUN/server-N.log}.
 * With power loss in the run, every start runs under the power-cut shim
 * (tests/fault/powercut) journalling into {@code RUN/powercut.journal}.
 * Stopped by its pid. Used by the nemesis thread and the runner's main
 * thread one after the other, never at once: methods are synchronized.
 */
final class SingleHost implements Hosts {
  static final long START_TIMEOUT_SECONDS = 120;
  static final long STOP_TIMEOUT_SECONDS = 60;
  private static final String READY = "partita: ready:";

  private final RunOptions options;
  private final Path runDir;
  private final Path dataDir;
  private final Path journal;
  private final List<Path> logs = new ArrayList<>();
  private int port;
  private Process process;
  private boolean paused;

  SingleHost(RunOptions options, Path runDir) {
    this.options = options;
    this.runDir = runDir;
    this.dataDir = runDir.resolve("data");
    this.journal = runDir.resolve("powercut.journal");
  }

  @Override
  public synchronized List<String> addresses() {
    return List.of("127.0.0.1:" + port);
  }

  @Override
  public synchronized void startAll() throws IOException, InterruptedException {
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    Files.createDirectories(dataDir);
    start();
  }

  @Override
  public synchronized void kill(int host) throws InterruptedException {
    requireHost(host);
    if (process == null) {
      return;
    }
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("host 127.0.0.1 (pid " + process.pid() + ") survived SIGKILL for 30 s");
    }
    process = null;
    paused = false;
  }

  @Override
  public synchronized void restart(int host) throws IOException, InterruptedException {
    requireHost(host);
    if (process != null && process.isAlive()) {
      throw new IllegalStateException("host 127.0.0.1 is still running (pid " + process.pid() + ")");
    }
    start();
  }

  @Override
  public void recover(int host) throws IOException, InterruptedException {
    restart(host);
  }

  @Override
  public List<Integer> survivors() {
    return List.of(0);
  }

  @Override
  public int coordinator() {
    return 0;
  }

  @Override
  public OptionalInt metadataLeader() {
    return OptionalInt.empty();
  }

  @Override
  public synchronized void pause(int host) throws IOException, InterruptedException {
    requireHost(host);
    signal("STOP");
    paused = true;
  }

  @Override
  public synchronized void resume(int host) throws IOException, InterruptedException {
    requireHost(host);
    signal("CONT");
    paused = false;
  }

  @Override
  public synchronized void dropUnsyncedWrites(int host) throws IOException, InterruptedException {
    requireHost(host);
    if (process != null) {
      throw new IllegalStateException("the power cut needs host 127.0.0.1 dead first");
    }
    if (!options.powerLoss()) {
      throw new IllegalStateException("the host did not run under the power-cut shim (no power-loss in --nemesis)");
    }
    if (!Files.exists(journal) || Files.size(journal) == 0) {
      throw new IllegalStateException("the power-cut journal " + journal + " records nothing: the shim did not run");
    }
    final Process restore = new ProcessBuilder(options.powercutTool().toString(), "restore", journal.toString())
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(
            runDir.resolve("powercut-restore.log").toFile())).start();
    if (!restore.waitFor(120, TimeUnit.SECONDS) || restore.exitValue() != 0) {
      restore.destroyForcibly();
      throw new IllegalStateException("partita_powercut restore " + journal + " failed: see "
          + runDir.resolve("powercut-restore.log"));
    }
    Files.delete(journal);
  }

  @Override
  public synchronized void healAll() throws IOException, InterruptedException {
    if (process != null && paused) {
      resume(0);
    }
    if (process != null && !process.isAlive()) {
      process = null;
    }
    if (process == null) {
      start();
    }
  }

  @Override
  public synchronized void stopAll() throws InterruptedException {
    if (process == null) {
      return;
    }
    if (paused) {
      signalQuietly("CONT");
    }
    process.destroy();
    if (!process.waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
      throw new IllegalStateException("host 127.0.0.1 ignored SIGTERM for " + STOP_TIMEOUT_SECONDS + " s");
    }
    process = null;
  }

  @Override
  public boolean restartable() {
    return true;
  }

  @Override
  public void cut(Grudge grudge) {
    throw new IllegalStateException("one host has no network between hosts to cut");
  }

  @Override
  public void healNetwork() {
    // One host: nothing is ever cut.
  }

  @Override
  public synchronized List<Path> logs() {
    return List.copyOf(logs);
  }

  @Override
  public synchronized void close() {
    if (process == null) {
      return;
    }
    if (paused) {
      signalQuietly("CONT");
    }
    process.destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process = null;
  }

  private void start() throws IOException, InterruptedException {
    final Path log = runDir.resolve("server-" + (logs.size() + 1) + ".log");
    logs.add(log);
    final List<String> command = new ArrayList<>(List.of(options.root().resolve("scripts/partita").toString(),
        "start", "--schema", options.schema().toString(), "--classes", options.classes().toString(),
        "--data-dir", dataDir.toString(), "--command-log", options.commandLog(), "--log-segment-mb", "8",
        "--sites", Integer.toString(options.sites()), "--bind", "127.0.0.1", "--port", Integer.toString(port),
        "--http-port", "-1"));
    final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    builder.environment().put("PARTITA_JAVA_OPTS", "-Xmx1g");
    builder.environment().putAll(shimEnvironment());
    process = builder.start();
    awaitReady(log);
  }

  private Map<String, String> shimEnvironment() {
    final Map<String, String> env = new HashMap<>();
    if (options.powerLoss()) {
      env.put("LD_PRELOAD", options.powercutShim().toString());
      env.put("PARTITA_POWERCUT_DIR", dataDir.toAbsolutePath().toString());
      env.put("PARTITA_POWERCUT_JOURNAL", journal.toAbsolutePath().toString());
    }
    return env;
  }

  private void awaitReady(Path log) throws IOException, InterruptedException {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
    while (System.nanoTime() < deadline) {
      if (Files.readString(log, StandardCharsets.UTF_8).contains(READY)) {
        return;
      }
      if (!process.isAlive()) {
        final int code = process.exitValue();
        process = null;
        throw new IllegalStateException("host 127.0.0.1 exited with code " + code + " before it was ready; see "
            + log);
      }
      TimeUnit.MILLISECONDS.sleep(20);
    }
    close();
    throw new IllegalStateException("host 127.0.0.1 was not ready after " + START_TIMEOUT_SECONDS + " s; see " + log);
  }

  private void signal(String signal) throws IOException, InterruptedException {
    if (process == null) {
      throw new IllegalStateException("host 127.0.0.1 is not running");
    }
    final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
    if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
    }
  }

  private void signalQuietly(String signal) {
    try {
      signal(signal);
    } catch (IOException | RuntimeException e) {
      // the process is being killed anyway
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void requireHost(int host) {
    if (host != 0) {
      throw new IllegalArgumentException("host " + host + " does not exist: one host (0)");
    }
  }
}
