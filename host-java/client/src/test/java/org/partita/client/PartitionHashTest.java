package org.partita.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class PartitionHashTest {
  private static final Path VECTORS = Path.of("../../tests/vectors/partition_hash.tsv");

  @Test
  void shouldComputeStandardFnv1aValues() {
    assertEquals(0xcbf29ce484222325L, PartitionHash.fnv1a64(new byte[0]));
    assertEquals(0xaf63dc4c8601ec8cL, PartitionHash.fnv1a64("a".getBytes(StandardCharsets.UTF_8)));
    assertEquals(0x85944171f73967e8L, PartitionHash.fnv1a64("foobar".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void shouldHashIntegersOfEveryWidthAlike() {
    assertEquals(PartitionHash.partition(7L, 12), PartitionHash.partition(7, 12));
    assertEquals(PartitionHash.partition(7L, 12), PartitionHash.partition((short) 7, 12));
    assertEquals(PartitionHash.partition(-3L, 5), PartitionHash.partition((byte) -3, 5));
  }

  @Test
  void shouldSendNullToPartitionZero() {
    assertEquals(0, PartitionHash.partition(null, 8));
  }

  @Test
  void shouldMatchTheSharedVectors() throws Exception {
    final List<String> lines = Files.readAllLines(VECTORS, StandardCharsets.UTF_8);
    int checked = 0;
    for (String line : lines) {
      if (line.startsWith("#") || line.isBlank()) {
        continue;
      }
      final String[] f = line.split("\t", -1);
      final long hash = switch (f[0]) {
        case "BIGINT" -> PartitionHash.hashLong(Long.parseLong(f[1]));
        case "VARCHAR" -> PartitionHash.hashString(f[1]);
        default -> PartitionHash.hashBytes(HexFormat.of().parseHex(f[1]));
      };
      assertEquals(f[2], String.format("%016x", hash), line);
      assertEquals(Integer.parseInt(f[3]), PartitionHash.bucket(hash), line);
      final int[] counts = {2, 3, 4, 8, 12};
      for (int i = 0; i < counts.length; i++) {
        assertEquals(Integer.parseInt(f[4 + i]), PartitionHash.partitionOfHash(hash, counts[i]), line);
      }
      checked++;
    }
    assertEquals(19, checked);
  }
}
