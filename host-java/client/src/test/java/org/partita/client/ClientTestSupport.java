package org.partita.client;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.partita.client.proto.ProcedureRouting;

/** Shared helpers of the client tests. */
final class ClientTestSupport {
  private ClientTestSupport() {}

  /** A configuration for tests: one I/O thread, short connect timeout, fast reconnects. */
  static ClientConfig.Builder testConfig() {
    return ClientConfig.builder().clientName("client-test").ioThreads(1).connectTimeout(Duration.ofSeconds(3))
        .reconnectBackoff(Duration.ofMillis(20), Duration.ofMillis(200));
  }

  static ProcedureRouting route(String name, boolean singlePartition, int parameter, ValueType type) {
    return ProcedureRouting.newBuilder().setName(name).setSinglePartition(singlePartition)
        .setPartitionParameter(parameter).setPartitionType(type.code()).build();
  }

  /** Waits until {@code condition} holds, failing after 5 s. */
  static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
    final long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.sleep(5);
    }
  }

  static void closeQuietly(AutoCloseable... resources) {
    for (AutoCloseable r : resources) {
      if (r != null) {
        try {
          r.close();
        } catch (Exception e) {
          // best effort in teardown
        }
      }
    }
  }
}
