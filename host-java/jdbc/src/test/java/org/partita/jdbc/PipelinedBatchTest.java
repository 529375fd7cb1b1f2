package org.partita.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A batch is sent whole before any answer is awaited: the server here
 * answers nothing until every entry has arrived, so a driver that waited
 * for each answer would time out.
 */
class PipelinedBatchTest {
  private static final int ENTRIES = 50;

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void shouldSendEveryEntryBeforeAwaitingAnyAnswer() throws Exception {
    try (HoldingServer server = new HoldingServer(ENTRIES);
        Connection c = new PartitaDriver().connect("jdbc:partita://" + server.address() + "?callTimeoutMs=5000",
            null);
        CallableStatement call = c.prepareCall("{call Touch(?)}")) {
      for (int i = 0; i < ENTRIES; i++) {
        call.setInt(1, i);
        call.addBatch();
      }
      final int[] counts = call.executeBatch();
      assertEquals(Collections.nCopies(ENTRIES, Statement.SUCCESS_NO_INFO),
          Arrays.stream(counts).boxed().toList());
      assertEquals(Collections.nCopies(ENTRIES, "Touch"), server.procedures());
    }
  }
}
