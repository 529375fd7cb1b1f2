package org.partita.server.sysproc;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.partita.server.procedure.Procedure;

/**
 * Test procedure (multi-partition): holds every partition until the test
 * counts {@link #release} down (at most 30 s), so that queues fill up.
 */
public final class Hold extends Procedure {
  public static volatile CountDownLatch started = new CountDownLatch(1);
  public static volatile CountDownLatch release = new CountDownLatch(1);

  public long run() throws InterruptedException {
    started.countDown();
    return release.await(30, TimeUnit.SECONDS) ? 0 : 1;
  }
}
