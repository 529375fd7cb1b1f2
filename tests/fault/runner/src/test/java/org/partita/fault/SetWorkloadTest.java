package org.partita.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SetWorkloadTest {
  @Test
  void shouldPutEachElementInItsBucket() {
    final Operation add = new SetWorkload(false, true).next(new Random(1), 0);
    assertEquals("SetAdd", add.procedure());
    assertEquals(SetWorkload.bucket(add.writeId()), add.parameters()[0]);
    assertEquals(add.writeId(), add.parameters()[1]);
    assertEquals(31L, SetWorkload.bucket(-1));
  }

  @Test
  void shouldReadOneTransactionOnOneHostAndEveryBucketOnACluster() {
    final SetWorkload single = new SetWorkload(true, false);
    final SetWorkload cluster = new SetWorkload(true, true);
    final Operation finalRead = single.finalReads().get(0);
    assertEquals("SetRead", finalRead.procedure());
    assertNull(single.unionOf(finalRead));
    final List<Query> parts = cluster.unionOf(cluster.finalReads().get(0));
    assertEquals(SetWorkload.BUCKETS, parts.size());
    assertTrue(parts.stream().allMatch(q -> q.procedure().equals("SetReadBucket")));
    final Random random = new Random(3);
    for (int i = 0; i < 200; i++) {
      final Operation op = cluster.next(random, 0);
      assertTrue(op.procedure().equals("SetAdd") || op.procedure().equals("SetReadBucket"), op.procedure());
    }
  }
}
