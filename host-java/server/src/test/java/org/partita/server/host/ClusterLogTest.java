package org.partita.server.host;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When {@code --recover} takes a data directory whose log holds no segment
 * ({@link ClusterLog#ranWithEmptyLog}): only a directory this host ran in
 * before (its identity was there) with a log (its {@code commandlog/}
 * exists), as a host killed before its first record leaves it.
 */
class ClusterLogTest {
  @TempDir
  Path dataDir;

  @Test
  void shouldRecoverAnEmptyLogOnlyOfADirectoryThisHostRanInWithALog() throws Exception {
    assertFalse(ClusterLog.ranWithEmptyLog(dataDir, false), "a new directory");
    assertFalse(ClusterLog.ranWithEmptyLog(dataDir, true), "this host's, but it never opened a log");
    Files.createDirectories(dataDir.resolve("commandlog"));
    assertFalse(ClusterLog.ranWithEmptyLog(dataDir, false), "a log directory, but not this host's directory");
    assertTrue(ClusterLog.ranWithEmptyLog(dataDir, true));
  }
}
