package org.partita.server.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.server.txn.TxnId;

class LogTruncationTest {
  @TempDir
  Path dataDir;

  @Test
  void shouldRecordTheSnapshotARestoreRequires() throws Exception {
    Files.createDirectories(SegmentFiles.directory(dataDir));
    final List<TxnId> cut = Arrays.asList(new TxnId(0, 2, 17), null);
    LogTruncation.requireSnapshot(dataDir, "snapshot-20261124-090000-000", cut);
    assertEquals(new LogTruncation.Mark(1, cut, "snapshot-20261124-090000-000"), LogTruncation.readMark(dataDir));
  }

  @Test
  void shouldReadAMarkWithoutASnapshotAsBefore() throws Exception {
    final Path directory = Files.createDirectories(SegmentFiles.directory(dataDir));
    Files.writeString(directory.resolve(LogTruncation.MARK), "first-segment 4\ncut 0 3:9\ncut 1 none\n");
    assertEquals(new LogTruncation.Mark(4, Arrays.asList(new TxnId(0, 3, 9), null)),
        LogTruncation.readMark(dataDir));
  }
}
