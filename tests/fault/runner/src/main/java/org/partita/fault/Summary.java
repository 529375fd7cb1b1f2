package org.partita.fault;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A run's summary ({@code RUN/summary.txt}, docs/testing.md "Reading a
 * report"): the run, operations by outcome, faults by kind and duration,
 * availability, the checker's lines, the audit, the copies compared, and
 * the three closing lines. Built by the main thread only.
 */
final class Summary {
  private final List<String> lines = new ArrayList<>();

  void add(String line) {
    lines.add(line);
  }

  void addAll(List<String> more) {
    lines.addAll(more);
  }

  /** Operations by function and outcome, from the workers' completions. */
  void operations(List<History.Completion> completions, int open) {
    final Map<String, int[]> byFunction = new LinkedHashMap<>();
    final int[] total = new int[3];
    for (History.Completion c : completions) {
      byFunction.computeIfAbsent(c.f(), f -> new int[3])[c.outcome().ordinal()]++;
      total[c.outcome().ordinal()]++;
    }
    add(String.format(Locale.ROOT, "operations: %d (ok %d, fail %d, info %d; %d left open, counted as info)",
        completions.size() + open, total[0], total[1], total[2] + open, open));
    for (Map.Entry<String, int[]> e : byFunction.entrySet()) {
      add(String.format(Locale.ROOT, "  %s: ok %d, fail %d, info %d", e.getKey(), e.getValue()[0], e.getValue()[1],
          e.getValue()[2]));
    }
  }

  /** Faults by kind: how many, their mean and longest durations (start to healed). */
  void faults(List<History.FaultWindow> faults) {
    final Map<String, List<Long>> byKind = new LinkedHashMap<>();
    for (History.FaultWindow f : faults) {
      byKind.computeIfAbsent(f.nemesis(), k -> new ArrayList<>()).add(f.end() - f.start());
    }
    add("faults: " + faults.size());
    for (Map.Entry<String, List<Long>> e : byKind.entrySet()) {
      final long sum = e.getValue().stream().mapToLong(Long::longValue).sum();
      final long max = e.getValue().stream().mapToLong(Long::longValue).max().orElse(0);
      add(String.format(Locale.ROOT, "  %s: %d, mean %.3f s, longest %.3f s (start to healed)", e.getKey(),
          e.getValue().size(), sum / 1e9 / e.getValue().size(), max / 1e9));
    }
  }

  /** Writes the summary, ending with the three closing lines, and prints it. */
  void finish(Path file, int lost, boolean linearizable, String replicasIdentical) throws IOException {
    add("acknowledged writes lost: " + lost);
    add("linearizable: " + (linearizable ? "yes" : "no"));
    add("replicas identical: " + replicasIdentical);
    write(file);
  }

  /** Writes the summary of a run that could not finish, ending with the reason. */
  void abort(Path file, String reason) throws IOException {
    add("run aborted: " + reason);
    write(file);
  }

  private void write(Path file) throws IOException {
    Files.write(file, lines, StandardCharsets.UTF_8);
    for (String line : lines) {
      System.out.println(line);
    }
  }
}
