package org.partita.fault;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the Go checker (tests/fault/checker) on a run's history: its output
 * goes to {@code RUN/checker.txt}, its report.json (and a violation's HTML)
 * into the run directory.
 *
 * @param exitCode the checker's exit code (0 passed, 1 a check failed, 2 bad usage or history)
 * @param lines what it printed
 */
record CheckerProcess(int exitCode, List<String> lines) {
  static final long TIMEOUT_SECONDS = 300;

  static CheckerProcess run(Path checker, Workload workload, Path history, Path runDir) throws IOException,
      InterruptedException {
    if (!Files.isExecutable(checker)) {
      throw new IllegalStateException("the checker " + checker + " is missing: build it with scripts/build");
    }
    final List<String> command = new ArrayList<>(List.of(checker.toString(), "--workload", workload.name(),
        "--history", history.toString(), "--out", runDir.toString(), "--timeout", "2m"));
    command.addAll(workload.checkerArguments());
    final Path output = runDir.resolve("checker.txt");
    final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
        .start();
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
      return new CheckerProcess(-1, List.of("the checker ran past " + TIMEOUT_SECONDS + " s and was killed"));
    }
    return new CheckerProcess(process.exitValue(), Files.readAllLines(output, StandardCharsets.UTF_8));
  }

  boolean passed() {
    return exitCode == 0;
  }

  /** The checker's "linearizable: " verdict, or null when it printed none (workloads it does not search). */
  String linearizable() {
    for (String line : lines) {
      if (line.startsWith("linearizable: ")) {
        return line.substring("linearizable: ".length()).trim();
      }
    }
    return null;
  }
}
