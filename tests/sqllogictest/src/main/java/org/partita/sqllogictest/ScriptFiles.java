package org.partita.sqllogictest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Expands command-line paths into script files. Stateless. */
final class ScriptFiles {

  private static final String SUFFIX = ".test";

  private ScriptFiles() {}

  /**
   * Returns the files named by {@code paths}, in order: a file stands for itself; a directory for
   * every {@code *.test} file below it, recursively, sorted by path. Throws {@link
   * NoSuchFileException} for a path that does not exist.
   */
  static List<Path> expand(List<Path> paths) throws IOException {
    final List<Path> files = new ArrayList<>();
    for (final Path path : paths) {
      if (Files.isDirectory(path)) {
        files.addAll(testsUnder(path));
      } else if (Files.exists(path)) {
        files.add(path);
      } else {
        throw new NoSuchFileException(path.toString());
      }
    }
    return files;
  }

  private static List<Path> testsUnder(Path directory) throws IOException {
    try (Stream<Path> walk = Files.walk(directory)) {
      return walk.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().endsWith(SUFFIX))
          .sorted()
          .collect(Collectors.toList());
    }
  }
}
