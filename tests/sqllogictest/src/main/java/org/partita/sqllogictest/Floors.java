package org.partita.sqllogictest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Per-file bounds a run must meet (the {@code --floors FILE} option): the lowest pass rate accepted
 * and, optionally, the longest a single record may take.
 *
 * <p>The file has one line per script: {@code <path suffix> <min pass %> [<max record seconds>]},
 * fields separated by whitespace; blank lines and lines starting with {@code #} are ignored. A
 * script matches the first line whose suffix ends its path (compared with {@code /} separators),
 * so {@code evidence/in1.test} matches {@code /any/where/evidence/in1.test}.
 */
final class Floors {

  /** The bounds of one script. {@code maxRecordSeconds} is NaN when the line gives none. */
  record Floor(String suffix, double minPassRate, double maxRecordSeconds) {}

  private final List<Floor> floors;

  private Floors(List<Floor> floors) {
    this.floors = floors;
  }

  /** Reads {@code file}; throws IllegalArgumentException naming the line of a malformed entry. */
  static Floors read(Path file) throws IOException {
    return parse(file.toString(), Files.readAllLines(file));
  }

  static Floors parse(String name, List<String> lines) {
    final List<Floor> floors = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      final String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      final String[] fields = line.split("\\s+");
      if (fields.length < 2 || fields.length > 3) {
        throw new IllegalArgumentException(name + ":" + (i + 1)
            + ": expected '<path suffix> <min pass %> [<max record seconds>]', found: " + line);
      }
      try {
        floors.add(new Floor(fields[0], Double.parseDouble(fields[1]),
            fields.length == 3 ? Double.parseDouble(fields[2]) : Double.NaN));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + ":" + (i + 1) + ": not a number in: " + line, e);
      }
    }
    return new Floors(floors);
  }

  /** The bounds for the script at {@code path}, if a line names it. */
  Optional<Floor> find(String path) {
    final String normalized = path.replace('\\', '/');
    return floors.stream()
        .filter(f -> normalized.equals(f.suffix()) || normalized.endsWith("/" + f.suffix()))
        .findFirst();
  }

  /** What {@code report} breaks of {@code floor}; empty when it meets both bounds. */
  static List<String> violations(FileReport report, Floor floor) {
    final List<String> found = new ArrayList<>();
    if (report.passRate() < floor.minPassRate()) {
      found.add(String.format(Locale.ROOT, "%s: pass rate %.2f%% is below its floor %.2f%%",
          report.file(), report.passRate(), floor.minPassRate()));
    }
    if (!Double.isNaN(floor.maxRecordSeconds())
        && report.timing().slowestSeconds() > floor.maxRecordSeconds()) {
      found.add(String.format(Locale.ROOT, "%s: the record at %s took %.3f s, over its limit of %s s",
          report.file(), report.timing().slowest(), report.timing().slowestSeconds(),
          floor.maxRecordSeconds()));
    }
    return found;
  }
}
