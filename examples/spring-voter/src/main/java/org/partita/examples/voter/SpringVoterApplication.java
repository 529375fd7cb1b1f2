package org.partita.examples.voter;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The Voter web application: a scheduled firehose of Vote calls through the
 * asynchronous Java client ({@link VoteFirehose}), a throughput line every
 * 5 s ({@link ThroughputReporter}), the results page at / refreshing every
 * 400 ms from /api/results ({@link ResultsController}, read through
 * JdbcTemplate on the Partita JDBC driver), Micrometer metrics and a
 * database health indicator under /actuator.
 *
 * <p>With {@code --voter.duration-seconds=S} it votes for S seconds, then
 * stops, prints its final line and exits 0 when its tally agrees with
 * Results, 1 otherwise. Without it, it runs until stopped (Ctrl-C, SIGTERM)
 * and prints the final line while shutting down.
 */
@SpringBootApplication
@EnableScheduling
@ConfigurationPropertiesScan
public class SpringVoterApplication {
  public static void main(String[] args) throws InterruptedException {
    final ConfigurableApplicationContext context = SpringApplication.run(SpringVoterApplication.class, args);
    final VoterRun run = context.getBean(VoterRun.class);
    final long seconds = context.getBean(VoterProperties.class).durationSeconds();
    if (seconds > 0) {
      run.awaitEnd(seconds);
      context.close();
      System.exit(run.summary() != null && run.summary().consistent() ? 0 : 1);
    }
  }
}
