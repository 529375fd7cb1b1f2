package org.partita.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.partita.client.ClientTestSupport.closeQuietly;
import static org.partita.client.ClientTestSupport.testConfig;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The time limit a call asks the server for (the invocation's
 * timeout_millis): a call's own timeout, else ClientConfig.queryTimeout,
 * else none (the server's default).
 */
class PartitaClientTimeLimitTest {
  private FakeServer server;
  private PartitaClient client;

  @AfterEach
  void tearDown() {
    closeQuietly(client, server);
  }

  private int sentTimeout(ClientConfig config, Duration callTimeout) throws Exception {
    server = FakeServer.started();
    client = new PartitaClient(config);
    client.connect(server.address());
    server.onInvocation = (s, inv) -> { };
    if (callTimeout == null) {
      client.callAsync("P", 1L);
    } else {
      client.callAsync(callTimeout, "P", 1L);
    }
    return server.next().invocation().getTimeoutMillis();
  }

  @Test
  @Timeout(10)
  void shouldSendNoLimitByDefault() throws Exception {
    assertEquals(0, sentTimeout(testConfig().build(), null));
  }

  @Test
  @Timeout(10)
  void shouldSendTheConfiguredQueryTimeout() throws Exception {
    assertEquals(2000, sentTimeout(testConfig().queryTimeout(Duration.ofSeconds(2)).build(), null));
  }

  @Test
  @Timeout(10)
  void shouldSendACallsOwnTimeoutRoundedUpToWholeMilliseconds() throws Exception {
    assertEquals(1501, sentTimeout(testConfig().queryTimeout(Duration.ofSeconds(2)).build(),
        Duration.ofNanos(TimeUnit.MILLISECONDS.toNanos(1500) + 1)));
  }

  @Test
  @Timeout(10)
  void shouldAskForAtMostAnHour() throws Exception {
    assertEquals(3_600_000, sentTimeout(testConfig().build(), Duration.ofDays(1)));
  }

  @Test
  void shouldRejectANegativeOrOversizedQueryTimeout() {
    final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
        () -> ClientConfig.builder().queryTimeout(Duration.ofMillis(-1)));
    assertTrue(negative.getMessage().contains("queryTimeout must be between zero"), negative.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ClientConfig.builder().queryTimeout(Duration.ofMinutes(61)));
  }
}
