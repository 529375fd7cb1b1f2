package org.partita.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled engine library is extracted once per build and shared: a
 * process killed with SIGKILL (every failover and fault test kills hosts)
 * used to leave its own 27 MB copy in the temporary directory, and
 * thousands of them filled a disk.
 */
class NativeLibraryTest {
  @Test
  void shouldShareOneExtractedCopyPerLibraryBuild() throws IOException {
    final Path first = NativeLibrary.extract();
    final Path second = NativeLibrary.extract();
    assertEquals(first, second, "every process loading this build loads the same file");
    assertTrue(Files.isRegularFile(first));
    assertTrue(first.getFileName().toString().matches("libpartita_jni-[0-9a-f]{8}-[0-9]+\\.so"), first.toString());
    assertEquals(Long.parseLong(first.getFileName().toString().replaceAll(".*-([0-9]+)\\.so", "$1")),
        Files.size(first), "its name carries its size");
    try (Stream<Path> files = Files.list(first.getParent())) {
      final List<Path> parts = files.filter(f -> f.getFileName().toString().endsWith(".part")).toList();
      assertEquals(List.of(), parts, "no partial copy is left behind");
    }
  }

  @Test
  void shouldRefuseToLoadFromADirectoryOthersCanWriteTo(@TempDir Path tmp) throws IOException {
    final Path shared = tmp.resolve("partita-native-" + System.getProperty("user.name", "user"));
    Files.createDirectories(shared);
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
    final String before = System.getProperty("java.io.tmpdir");
    System.setProperty("java.io.tmpdir", tmp.toString());
    try {
      final UnsatisfiedLinkError refused = assertThrows(UnsatisfiedLinkError.class, NativeLibrary::extract);
      assertTrue(refused.getMessage().contains("rwxrwxrwx"), refused.getMessage());
    } finally {
      System.setProperty("java.io.tmpdir", before);
    }
  }
}
