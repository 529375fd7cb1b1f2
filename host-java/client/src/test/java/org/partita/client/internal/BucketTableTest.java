package org.partita.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.partita.client.PartitionHash;
import org.partita.client.ValueType;
import org.partita.client.proto.Topology;

/** The client routes through the topology's bucket table (tests/vectors/partition_map.tsv). */
class BucketTableTest {
  private static final Path VECTORS = Path.of("../../tests/vectors/partition_map.tsv");

  @Test
  void shouldRouteTheSharedVectorsThroughTheBucketTable() throws Exception {
    int partitions = 0;
    final int[] table = new int[PartitionHash.BUCKETS];
    int checked = 0;
    Topology topology = null;
    for (String line : Files.readAllLines(VECTORS, StandardCharsets.UTF_8)) {
      if (line.startsWith("#") || line.isBlank()) {
        continue;
      }
      final String[] f = line.split("\t", -1);
      switch (f[0]) {
        case "partitions" -> partitions = Integer.parseInt(f[1]);
        case "buckets" -> Arrays.fill(table, Integer.parseInt(f[1]), Integer.parseInt(f[2]) + 1,
            Integer.parseInt(f[3]));
        default -> {
          if (topology == null) {
            topology = topology(partitions, table);
          }
          final int[] routed = Router.bucketTable(topology);
          final int bucket = PartitionKey.bucket(value(f[1], f[2]), type(f[1]).code());
          assertEquals(Integer.parseInt(f[3]), routed[bucket], line);
          checked++;
        }
      }
    }
    assertEquals(19, checked);
  }

  @Test
  void shouldUseBucketModCountWhenTheServerSendsNoTable() {
    final int[] routed = Router.bucketTable(Topology.newBuilder().setPartitionCount(3).build());
    assertEquals(PartitionHash.BUCKETS, routed.length);
    assertEquals(7924 % 3, routed[7924]);
  }

  @Test
  void shouldRefuseATableNamingAPartitionThatDoesNotExist() {
    final int[] table = new int[PartitionHash.BUCKETS];
    table[5] = 9;
    assertEquals(0, Router.bucketTable(topology(4, table)).length);
  }

  private static Topology topology(int partitions, int[] table) {
    final Topology.Builder t = Topology.newBuilder().setPartitionCount(partitions);
    for (int p = 0; p < partitions; p++) {
      t.addPartitionLeaders(0);
    }
    for (int partition : table) {
      t.addBucketPartitions(partition);
    }
    return t.build();
  }

  private static ValueType type(String name) {
    return ValueType.valueOf(name);
  }

  private static Object value(String type, String text) {
    return switch (type) {
      case "BIGINT" -> Long.parseLong(text);
      case "VARCHAR" -> text.replace("\\t", "\t").replace("\\n", "\n").replace("\\\\", "\\");
      default -> HexFormat.of().parseHex(text);
    };
  }
}
