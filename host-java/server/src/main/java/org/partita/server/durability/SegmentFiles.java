package org.partita.server.durability;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The command log's files: {@code <data-dir>/commandlog/segment-NNNNNNNNNN.log},
 * numbered from 1, and {@code .new} files being preallocated (not yet part
 * of the log). Stateless.
 */
final class SegmentFiles {
  static final String DIRECTORY = "commandlog";
  static final String PREPARING_SUFFIX = ".new";
  private static final Pattern NAME = Pattern.compile("segment-(\\d{10})\\.log");
  private static final int ZERO_CHUNK = 1 << 20;

  private SegmentFiles() {}

  static Path directory(Path dataDir) {
    return dataDir.resolve(DIRECTORY);
  }

  static String name(long number) {
    return String.format("segment-%010d.log", number);
  }

  /** The segment number in {@code file}'s name, or -1 when it is not a segment's name. */
  static long number(Path file) {
    final Matcher m = NAME.matcher(file.getFileName().toString());
    return m.matches() ? Long.parseLong(m.group(1)) : -1;
  }

  /** The segments of {@code directory} in number order (empty when it does not exist). */
  static List<Path> segments(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    final List<Path> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(directory)) {
      files.filter(f -> number(f) > 0).forEach(out::add);
    }
    out.sort(Comparator.comparingLong(SegmentFiles::number));
    return out;
  }

  /** Files being preallocated when the server stopped (never part of the log). */
  static List<Path> leftovers(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(f -> f.getFileName().toString().endsWith(PREPARING_SUFFIX)).toList();
    }
  }

  /**
   * Creates {@code file} filled with {@code bytes} zeros and synced, so
   * that appending to it later changes no file size (fdatasync then writes
   * no metadata). Returns it open for writing.
   */
  static FileChannel preallocate(Path file, long bytes) throws IOException {
    final FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
        StandardOpenOption.READ);
    try {
      final ByteBuffer zeros = ByteBuffer.allocateDirect(ZERO_CHUNK);
      for (long at = 0; at < bytes; ) {
        zeros.clear().limit((int) Math.min(ZERO_CHUNK, bytes - at));
        at += channel.write(zeros, at);
      }
      channel.force(true);
      return channel;
    } catch (IOException | RuntimeException e) {
      channel.close();
      Files.deleteIfExists(file); // half preallocated: of no use, and in the way of the next attempt
      throw e;
    }
  }

  /** True iff {@code e} says the file system has no space left (ENOSPC). */
  static boolean isDiskFull(IOException e) {
    return e.getMessage() != null && e.getMessage().contains("No space left on device");
  }

  /** Makes the directory's entries (a rename, a new file) durable. */
  static void syncDirectory(Path directory) throws IOException {
    try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
      dir.force(true);
    }
  }
}
