package org.partita.server.durability;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * The procedure classes a data directory's command log was written with
 * (docs/durability.md, "Procedure classes"): a copy of every file of the
 * {@code --classes} jars and directories, kept as one jar named by the
 * digest of its contents in {@code DATA/classes/}, and the file
 * {@code DATA/classes/current} naming the set the log's transactions ran
 * with. Recovery compiles the schema against that copy, so a logged call
 * replays with the code it ran with, whatever {@code --classes} says.
 *
 * <p>Every file is written to a temporary name, synced, renamed and its
 * directory synced, so a crash leaves either the old state or the new.
 * Stateless; called once, on the starting thread.
 */
public final class ProcedureClasses {
  static final String DIRECTORY = "classes";
  static final String CURRENT = "current";

  /**
   * A set of class files (and resources): path inside a jar or directory
   * → bytes, and the hex digest (16 digits of SHA-256) naming it.
   */
  public record ClassSet(String id, SortedMap<String, byte[]> files) {
    public boolean isEmpty() {
      return files.isEmpty();
    }
  }

  private ProcedureClasses() {}

  /** Reads every file of {@code roots} (jars or class directories); a path in two roots keeps the first's bytes. */
  public static ClassSet read(List<Path> roots) throws IOException {
    final SortedMap<String, byte[]> files = new TreeMap<>();
    for (Path root : roots) {
      if (Files.isDirectory(root)) {
        try (Stream<Path> walk = Files.walk(root)) {
          for (Path file : (Iterable<Path>) walk.filter(Files::isRegularFile).sorted()::iterator) {
            files.putIfAbsent(root.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
          }
        }
      } else {
        try (ZipFile jar = new ZipFile(root.toFile())) {
          for (ZipEntry entry : Collections.list((Enumeration<ZipEntry>) jar.entries())) {
            if (!entry.isDirectory()) {
              files.putIfAbsent(entry.getName(), jar.getInputStream(entry).readAllBytes());
            }
          }
        }
      }
    }
    return new ClassSet(digest(files), Collections.unmodifiableSortedMap(files));
  }

  /** The id of the set the log of {@code dataDir} was written with, or null when none was recorded. */
  public static String currentId(Path dataDir) throws IOException {
    final Path current = dataDir.resolve(DIRECTORY).resolve(CURRENT);
    return Files.exists(current) ? Files.readString(current, StandardCharsets.UTF_8).strip() : null;
  }

  /** The stored jar of set {@code id} in {@code dataDir}. */
  public static Path jar(Path dataDir, String id) {
    return dataDir.resolve(DIRECTORY).resolve("classes-" + id + ".jar");
  }

  /**
   * Stores {@code set} in {@code dataDir} (unless that jar is there already)
   * and records it as the current set; an empty set records none. Returns
   * the stored jar, or null for an empty set.
   */
  public static Path record(Path dataDir, ClassSet set) throws IOException {
    final Path directory = Files.createDirectories(dataDir.resolve(DIRECTORY));
    if (set.isEmpty()) {
      if (Files.deleteIfExists(directory.resolve(CURRENT))) {
        SegmentFiles.syncDirectory(directory);
      }
      return null;
    }
    final Path jar = jar(dataDir, set.id());
    if (!Files.exists(jar)) {
      writeDurably(jar, out -> writeJar(out, set));
    }
    writeDurably(directory.resolve(CURRENT), out -> out.write((set.id() + "\n").getBytes(StandardCharsets.UTF_8)));
    return jar;
  }

  @FunctionalInterface
  private interface Writer {
    void write(OutputStream out) throws IOException;
  }

  /** Writes {@code file} through a temporary name: written, synced, renamed, directory synced. */
  private static void writeDurably(Path file, Writer writer) throws IOException {
    final Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      final OutputStream out = java.nio.channels.Channels.newOutputStream(channel);
      writer.write(out);
      out.flush();
      channel.force(true);
    }
    Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    SegmentFiles.syncDirectory(file.getParent());
  }

  private static void writeJar(OutputStream out, ClassSet set) throws IOException {
    final ZipOutputStream zip = new ZipOutputStream(out);
    for (var file : set.files().entrySet()) {
      final ZipEntry entry = new ZipEntry(file.getKey());
      entry.setTime(0);
      zip.putNextEntry(entry);
      zip.write(file.getValue());
      zip.closeEntry();
    }
    zip.finish();
  }

  private static String digest(SortedMap<String, byte[]> files) {
    final MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
    for (var file : files.entrySet()) {
      final byte[] name = file.getKey().getBytes(StandardCharsets.UTF_8);
      sha.update(java.nio.ByteBuffer.allocate(8).putInt(name.length).putInt(file.getValue().length).array());
      sha.update(name);
      sha.update(file.getValue());
    }
    return HexFormat.of().formatHex(sha.digest(), 0, 8);
  }
}
