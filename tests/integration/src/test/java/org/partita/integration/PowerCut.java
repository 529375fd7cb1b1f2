package org.partita.integration;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A simulated power cut for a server process run under the power-cut shim
 * (tests/fault/powercut, LD_PRELOAD): {@link #environment} is what the
 * server needs; after the process is killed, {@link #cut} runs
 * {@code partita_powercut restore}, which drops every write made under the
 * directory since its file's last fsync or fdatasync, so the files hold
 * only what was synced.
 */
final class PowerCut {
  private static final Path BUILD = ServerProcess.ROOT.resolve("build/tests/fault/powercut");
  static final Path SHIM = BUILD.resolve("libpartita_powercut.so");
  static final Path RESTORE = BUILD.resolve("partita_powercut");

  private final Path directory;
  private final Path journal;

  PowerCut(Path directory, Path journal) throws IOException {
    if (!Files.exists(SHIM) || !Files.exists(RESTORE)) {
      throw new IllegalStateException(SHIM + " or " + RESTORE + " is missing: run scripts/build");
    }
    Files.createDirectories(directory);
    this.directory = directory.toRealPath();
    this.journal = journal;
  }

  /** The server's environment under the shim; {@code syncEioAfter} ≥ 0 fails every sync after that many. */
  Map<String, String> environment(int syncEioAfter) {
    final Map<String, String> env = new HashMap<>(Map.of("LD_PRELOAD", SHIM.toString(), "PARTITA_POWERCUT_DIR",
        directory.toString(), "PARTITA_POWERCUT_JOURNAL", journal.toString()));
    if (syncEioAfter >= 0) {
      env.put("PARTITA_POWERCUT_SYNC_EIO_AFTER", Integer.toString(syncEioAfter));
    }
    return env;
  }

  Map<String, String> environment() {
    return environment(-1);
  }

  /**
   * Drops the unsynced writes the journal records; returns the restore
   * tool's report (one line per file). REQUIRES: the process is dead.
   *
   * @throws IllegalStateException when the journal is empty (the shim did not run) or the restore fails
   */
  String cut() throws IOException, InterruptedException {
    if (!Files.exists(journal) || Files.size(journal) == 0) {
      throw new IllegalStateException("the power-cut journal " + journal + " records nothing: the shim did not run");
    }
    final Process restore = new ProcessBuilder(RESTORE.toString(), "restore", journal.toString())
        .redirectErrorStream(true).start();
    final String report = new String(restore.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!restore.waitFor(60, TimeUnit.SECONDS) || restore.exitValue() != 0) {
      restore.destroyForcibly();
      throw new IllegalStateException("partita_powercut restore " + journal + " failed:\n" + report);
    }
    Files.delete(journal);
    return report;
  }
}
