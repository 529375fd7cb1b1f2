package org.partita.fault;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's history file (tests/fault/README.md, "The history"): one JSON
 * object per line, times in nanoseconds of one monotonic clock whose zero
 * is the history's creation. Also keeps, in memory, what the report needs:
 * the workers' completions and the fault windows. Thread-safe: every method
 * is synchronized, so lines never interleave and each line's time is taken
 * under the lock (the file is in time order).
 */
final class History implements AutoCloseable {
  /** A worker's operation, for availability. */
  record Completion(String f, long invoked, long completed, Outcome outcome) {
  }

  /** A fault from its start to the end of its healing. */
  record FaultWindow(String nemesis, String target, long start, long end) {
  }

  private final BufferedWriter out;
  private final long origin = System.nanoTime();
  private final Map<Integer, Long> openSince = new LinkedHashMap<>();
  private final Map<Integer, String> openFunction = new LinkedHashMap<>();
  private final List<Completion> completions = new ArrayList<>();
  private final List<FaultWindow> faults = new ArrayList<>();
  private final Map<Integer, Long> faultStarts = new LinkedHashMap<>();

  History(Path file) throws IOException {
    this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
  }

  /** Nanoseconds since the history began. */
  synchronized long now() {
    return System.nanoTime() - origin;
  }

  /** Records an invocation; {@code key} and {@code value} (encoded JSON) may be null. Returns its time. */
  synchronized long invoke(int process, String f, String key, String value) {
    final long time = now();
    openSince.put(process, time);
    openFunction.put(process, f);
    write(line(process, "invoke", f, key, value, time, null));
    return time;
  }

  /** Records the completion of the process's open operation; {@code error} (text) may be null. */
  synchronized void complete(int process, Outcome outcome, String f, String key, String value, String error) {
    final long time = now();
    final Long invoked = openSince.remove(process);
    openFunction.remove(process);
    if (invoked == null) {
      throw new IllegalStateException("process " + process + " completes " + f + " with nothing open");
    }
    completions.add(new Completion(f, invoked, time, outcome));
    final Map<String, String> extra = new LinkedHashMap<>();
    if (error != null) {
      extra.put("error", Json.string(error));
    }
    write(line(process, outcome.type(), f, key, outcome == Outcome.OK ? value : null, time, extra));
  }

  /** Records a final read made from {@code host} after healing, invoked at {@code invoked}. */
  synchronized void finalRead(int process, String f, String key, String host, long invoked, String value) {
    final Map<String, String> marks = new LinkedHashMap<>();
    marks.put("final", "true");
    marks.put("host", Json.string(host));
    write(line(process, "invoke", f, key, null, invoked, marks));
    write(line(process, "ok", f, key, value, now(), marks));
  }

  /**
   * Records that fault number {@code fault} begins ({@code phase} "start")
   * or has been healed ("end"); {@code detail} says what it hit.
   */
  synchronized void nemesis(String nemesis, String phase, int fault, String detail) {
    final long time = now();
    final Map<String, String> value = new LinkedHashMap<>();
    value.put("phase", Json.string(phase));
    value.put("fault", Integer.toString(fault));
    value.put("detail", Json.string(detail));
    write("{\"type\":\"nemesis\",\"f\":" + Json.string(nemesis) + ",\"value\":" + Json.object(value)
        + ",\"time\":" + time + "}");
    if (phase.equals("start")) {
      faultStarts.put(fault, time);
    } else {
      final Long start = faultStarts.remove(fault);
      faults.add(new FaultWindow(nemesis, detail, start == null ? time : start, time));
    }
  }

  synchronized List<Completion> completions() {
    return List.copyOf(completions);
  }

  synchronized List<FaultWindow> faults() {
    return List.copyOf(faults);
  }

  /** Operations still open (their process never completed them): they count as info. */
  synchronized int openOperations() {
    return openSince.size();
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }

  private static String line(int process, String type, String f, String key, String value, long time,
      Map<String, String> extra) {
    final Map<String, String> fields = new LinkedHashMap<>();
    fields.put("process", Integer.toString(process));
    fields.put("type", Json.string(type));
    fields.put("f", Json.string(f));
    if (key != null) {
      fields.put("key", Json.string(key));
    }
    if (value != null) {
      fields.put("value", value);
    }
    fields.put("time", Long.toString(time));
    if (extra != null) {
      fields.putAll(extra);
    }
    return Json.object(fields);
  }

  private void write(String line) {
    try {
      out.write(line);
      out.newLine();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the history", e);
    }
  }
}
