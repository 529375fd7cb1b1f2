package org.partita.examples.voter;

import java.time.Duration;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The database's health as /actuator/health shows it ("partita"): UP when
 * {@code @Ping} answers within a second through the firehose's client, with
 * the host that answered, the round trip and the servers connected; DOWN
 * with the reason otherwise. (Spring Boot adds "db", which asks the JDBC
 * pool's connections through isValid, also a @Ping.)
 */
@Component("partita")
public class PartitaHealthIndicator implements HealthIndicator {
  private static final Duration TIMEOUT = Duration.ofSeconds(1);

  private final PartitaClient client;

  public PartitaHealthIndicator(PartitaClient client) {
    this.client = client;
  }

  @Override
  public Health health() {
    final long start = System.nanoTime();
    try {
      final ClientResponse pong = client.call(TIMEOUT, "@Ping");
      final ResultTable t = pong.results().get(0);
      t.resetRowPosition();
      t.advanceRow();
      return Health.up().withDetail("host", t.getLong("HOST_ID"))
          .withDetail("roundTripMicros", (System.nanoTime() - start) / 1000)
          .withDetail("servers", client.connectedServers()).build();
    } catch (RuntimeException e) {
      return Health.down().withDetail("error", e.getMessage()).withDetail("servers", client.connectedServers())
          .build();
    }
  }
}
