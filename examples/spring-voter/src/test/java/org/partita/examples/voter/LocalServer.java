package org.partita.examples.voter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code scripts/partita start} server with the Voter schema on
 * 127.0.0.1 and a free port, for the tests. {@link #close} stops it by its
 * pid (SIGTERM, then SIGKILL after 30 s).
 */
final class LocalServer implements AutoCloseable {
  private static final Path ROOT = Path.of(System.getProperty("partita.root", "../..")).toAbsolutePath().normalize();
  private static final Pattern READY = Pattern.compile("partita: ready: client port ([^,\\s]+)");
  private static final long START_SECONDS = 90;

  private final Process process;
  private final Path log;
  private final String address;

  private LocalServer(Process process, Path log, String address) {
    this.process = process;
    this.log = log;
    this.address = address;
  }

  /** Starts the server and waits for its ready line. */
  static LocalServer start(int sites) throws IOException, InterruptedException {
    final Path log = Files.createTempFile("spring-voter-server-", ".log");
    final Process process = new ProcessBuilder(List.of(ROOT.resolve("scripts/partita").toString(), "start",
        "--schema", ROOT.resolve("bench/voter/ddl.sql").toString(), "--classes",
        ROOT.resolve("bench/voter/target/classes").toString(), "--sites", Integer.toString(sites), "--port", "0",
        "--http-port", "-1", "--bind", "127.0.0.1")).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
    while (System.nanoTime() < deadline && process.isAlive()) {
      final Matcher m = READY.matcher(Files.readString(log, StandardCharsets.UTF_8));
      if (m.find()) {
        return new LocalServer(process, log, m.group(1));
      }
      Thread.sleep(50);
    }
    final String output = Files.readString(log, StandardCharsets.UTF_8);
    new LocalServer(process, log, "").close();
    throw new IllegalStateException("the server did not become ready:\n" + output);
  }

  /** "127.0.0.1:PORT" of the client port. */
  String address() {
    return address;
  }

  @Override
  public void close() throws InterruptedException, IOException {
    if (process.isAlive()) {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    }
    Files.deleteIfExists(log);
  }
}
