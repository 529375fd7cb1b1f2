package org.partita.integration;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A simulated power cut for a server process run under the power-cut shim
 * (tests/powercut/powercut_shim.c, LD_PRELOAD): {@link #environment} is
 * what the server needs; after the process is killed, {@link #cut} puts
 * back every byte written under the prefix since its file's last fsync or
 * fdatasync, newest write first, so the files hold only what was synced.
 */
final class PowerCut {
  static final Path SHIM = ServerProcess.ROOT.resolve("build/tests/powercut/libpartita_powercut_shim.so");

  private record Write(long offset, long oldSize, byte[] before) {}

  private final Path prefix;
  private final Path journal;

  PowerCut(Path prefix, Path journal) throws IOException {
    if (!Files.exists(SHIM)) {
      throw new IllegalStateException(SHIM + " is missing: run scripts/build");
    }
    Files.createDirectories(prefix);
    this.prefix = prefix.toRealPath();
    this.journal = journal;
  }

  Map<String, String> environment() {
    return Map.of("LD_PRELOAD", SHIM.toString(), "PARTITA_POWERCUT_PREFIX", prefix.toString(),
        "PARTITA_POWERCUT_JOURNAL", journal.toString());
  }

  /**
   * Reverts the unsynced writes the journal records; returns how many.
   * REQUIRES: the process is dead.
   *
   * @throws IllegalStateException when the journal records no write at all (the shim did not run)
   */
  int cut() throws IOException {
    final ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(journal)).order(ByteOrder.LITTLE_ENDIAN);
    final Map<String, List<Write>> unsynced = new HashMap<>();
    int journaled = 0;
    while (in.hasRemaining()) {
      final byte type = in.get();
      final byte[] path = new byte[in.getInt()];
      in.get(path);
      final String file = new String(path, StandardCharsets.UTF_8);
      if (type == 'S') {
        unsynced.remove(file);
      } else if (type == 'W') {
        final long offset = in.getLong();
        final long oldSize = in.getLong();
        final byte[] before = new byte[in.getInt()];
        in.get(before);
        unsynced.computeIfAbsent(file, f -> new ArrayList<>()).add(new Write(offset, oldSize, before));
        journaled++;
      } else {
        throw new IOException("power-cut journal " + journal + ": unknown record type " + type);
      }
    }
    if (journaled == 0) {
      throw new IllegalStateException("the power-cut journal " + journal + " records no write: the shim did not run");
    }
    int reverted = 0;
    for (Map.Entry<String, List<Write>> e : unsynced.entrySet()) {
      final Path file = Path.of(e.getKey());
      if (!Files.isRegularFile(file)) {
        continue;
      }
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
        final List<Write> writes = e.getValue();
        for (int i = writes.size() - 1; i >= 0; i--) {
          final Write w = writes.get(i);
          ch.write(ByteBuffer.wrap(w.before()), w.offset());
          if (w.oldSize() < ch.size()) {
            ch.truncate(w.oldSize());
          }
          reverted++;
        }
      }
    }
    Files.delete(journal);
    return reverted;
  }
}
