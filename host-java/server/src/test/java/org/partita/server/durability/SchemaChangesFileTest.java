package org.partita.server.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaChangesFileTest {
  private static final Path FILE = Path.of("snap", SchemaChangesFile.NAME);

  @Test
  void shouldDecodeWhatItEncoded() throws Exception {
    final List<String> changes = List.of("CREATE TABLE t (id BIGINT NOT NULL);\nPARTITION TABLE t ON COLUMN id",
        "CREATE VIEW v (n) AS SELECT COUNT(*) FROM t -- é", "");
    assertEquals(changes, SchemaChangesFile.decode(FILE, SchemaChangesFile.encode(changes)));
    assertEquals(List.of(), SchemaChangesFile.decode(FILE, SchemaChangesFile.encode(List.of())));
  }

  @Test
  void shouldRefuseEveryTruncationNamingTheFile() {
    final byte[] bytes = SchemaChangesFile.encode(List.of("CREATE TABLE t (id BIGINT)", "DROP TABLE t"));
    for (int length = 0; length < bytes.length; length++) {
      final byte[] cut = Arrays.copyOf(bytes, length);
      final SnapshotCorruptException e = assertThrows(SnapshotCorruptException.class,
          () -> SchemaChangesFile.decode(FILE, cut), "length " + length);
      assertTrue(e.getMessage().startsWith(FILE + ": "), e.getMessage());
    }
  }

  @Test
  void shouldRefuseOtherBytes() {
    final byte[] bytes = SchemaChangesFile.encode(List.of("CREATE TABLE t (id BIGINT)"));
    bytes[0] = 'X';
    assertThrows(SnapshotCorruptException.class, () -> SchemaChangesFile.decode(FILE, bytes));
    final byte[] longer = Arrays.copyOf(SchemaChangesFile.encode(List.of("a")), 20);
    final SnapshotCorruptException e = assertThrows(SnapshotCorruptException.class,
        () -> SchemaChangesFile.decode(FILE, longer));
    assertTrue(e.getMessage().contains("after the last schema change"), e.getMessage());
  }
}
