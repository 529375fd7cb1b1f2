package org.partita.server.durability;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One segment file the log writes: its path, number, preallocated size,
 * open channel and how far it is written. Confined to the writer thread
 * (the preallocating thread hands it over complete).
 */
final class LogSegment {
  private final Path path;
  private final long number;
  private final long capacity;
  private final FileChannel channel;
  private long position;

  LogSegment(Path path, long number, long capacity, FileChannel channel) {
    this.path = path;
    this.number = number;
    this.capacity = capacity;
    this.channel = channel;
  }

  Path path() {
    return path;
  }

  long number() {
    return number;
  }

  long capacity() {
    return capacity;
  }

  FileChannel channel() {
    return channel;
  }

  /** Bytes written so far (the next write's offset). */
  long position() {
    return position;
  }

  void advanceTo(long at) {
    position = at;
  }

  /** The same segment after its file was renamed to {@code to} (the channel stays open). */
  LogSegment renamed(Path to) {
    final LogSegment out = new LogSegment(to, number, capacity, channel);
    out.position = position;
    return out;
  }

  /** Closes and deletes a segment never taken into the log. */
  void discard() throws IOException {
    channel.close();
    Files.deleteIfExists(path);
  }
}
