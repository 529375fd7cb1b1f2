package org.partita.server.durability;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes a small file so that a crash leaves either its old contents or
 * all of its new ones: written under a temporary name, synced, renamed
 * over it, and its directory synced. Stateless.
 */
public final class DurableFile {
  private DurableFile() {}

  /** Writes {@code bytes} as {@code file}, durably. REQUIRES: {@code file}'s directory exists. */
  public static void write(Path file, byte[] bytes) throws IOException {
    final Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      final ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(true);
    }
    Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    SegmentFiles.syncDirectory(file.getParent());
  }
}
