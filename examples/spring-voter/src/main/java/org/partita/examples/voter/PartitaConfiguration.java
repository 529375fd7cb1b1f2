package org.partita.examples.voter;

import java.time.Duration;
import org.partita.client.ClientConfig;
import org.partita.client.PartitaClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The asynchronous Java client the firehose votes through, connected to
 * every server of {@code voter.servers}. (The results page reads through
 * the JDBC driver instead: Spring Boot builds its HikariCP DataSource from
 * {@code spring.datasource.url}.)
 */
@Configuration
public class PartitaConfiguration {
  @Bean(destroyMethod = "close")
  public PartitaClient partitaClient(VoterProperties properties) {
    final PartitaClient client = new PartitaClient(ClientConfig.builder().clientName("spring-voter")
        .maxInFlightPerConnection(properties.maxInFlight()).backpressureTimeout(Duration.ofSeconds(10))
        .callTimeout(Duration.ofSeconds(30)).build());
    try {
      for (String server : properties.servers().split(",")) {
        client.connect(server.trim());
      }
      return client;
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }
}
