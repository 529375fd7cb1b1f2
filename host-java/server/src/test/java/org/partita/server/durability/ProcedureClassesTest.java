package org.partita.server.durability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The copy of the procedure classes a command log was written with: read
 * from directories and jars alike, named by their contents, stored once
 * and recorded as current; an empty set records none.
 */
class ProcedureClassesTest {
  @TempDir
  Path dir;

  private Path classDirectory(String name, String body) throws IOException {
    final Path root = dir.resolve(name);
    Files.createDirectories(root.resolve("com/example"));
    Files.writeString(root.resolve("com/example/Vote.class"), body);
    Files.writeString(root.resolve("readme.txt"), "procedures");
    return root;
  }

  private Path jarOf(Path directory) throws IOException {
    final Path jar = dir.resolve(directory.getFileName() + ".jar");
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(jar))) {
      for (String name : List.of("com/example/", "com/example/Vote.class", "readme.txt")) {
        zip.putNextEntry(new ZipEntry(name));
        if (!name.endsWith("/")) {
          zip.write(Files.readAllBytes(directory.resolve(name)));
        }
        zip.closeEntry();
      }
    }
    return jar;
  }

  @Test
  void aDirectoryAndAJarOfTheSameFilesAreTheSameSetAndOtherBytesAnother() throws IOException {
    final Path classes = classDirectory("classes", "version 1");
    final ProcedureClasses.ClassSet fromDirectory = ProcedureClasses.read(List.of(classes));
    final ProcedureClasses.ClassSet fromJar = ProcedureClasses.read(List.of(jarOf(classes)));
    assertEquals(List.of("com/example/Vote.class", "readme.txt"), List.copyOf(fromDirectory.files().keySet()));
    assertEquals(fromDirectory.id(), fromJar.id());
    assertEquals(16, fromDirectory.id().length());
    assertNotEquals(fromDirectory.id(), ProcedureClasses.read(List.of(classDirectory("other", "version 2"))).id());
    assertTrue(ProcedureClasses.read(List.of()).isEmpty());
  }

  @Test
  void recordingStoresTheJarOnceAndNamesItCurrent() throws IOException {
    final Path data = dir.resolve("data");
    final ProcedureClasses.ClassSet set = ProcedureClasses.read(List.of(classDirectory("classes", "v1")));
    assertNull(ProcedureClasses.currentId(data));
    final Path jar = ProcedureClasses.record(data, set);
    assertEquals(ProcedureClasses.jar(data, set.id()), jar);
    assertEquals(set.id(), ProcedureClasses.currentId(data));
    final ProcedureClasses.ClassSet back = ProcedureClasses.read(List.of(jar));
    assertEquals(set.id(), back.id(), "the stored copy holds the same files");
    assertArrayEquals("v1".getBytes(StandardCharsets.UTF_8), back.files().get("com/example/Vote.class"));
    assertEquals(List.of(), Files.list(data.resolve("classes")).filter(f -> f.toString().endsWith(".tmp")).toList());

    assertNull(ProcedureClasses.record(data, ProcedureClasses.read(List.of())));
    assertNull(ProcedureClasses.currentId(data), "no classes: no current set");
    assertTrue(Files.exists(jar), "a stored copy is kept");
  }
}
