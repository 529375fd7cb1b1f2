package org.partita.server.database.procs;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.partita.server.procedure.Procedure;

/**
 * Test procedure that holds its partition until the test opens the gate:
 * it counts {@link #entered} down, then waits for {@link #open}. Used only by
 * SchemaChangeRaceTest, which replaces both latches before each use.
 */
public final class Gate extends Procedure {
  public static volatile CountDownLatch entered = new CountDownLatch(1);
  public static volatile CountDownLatch open = new CountDownLatch(1);

  public long run(long key) throws InterruptedException {
    entered.countDown();
    if (!open.await(60, TimeUnit.SECONDS)) {
      abort("the test never opened the gate");
    }
    return key;
  }
}
