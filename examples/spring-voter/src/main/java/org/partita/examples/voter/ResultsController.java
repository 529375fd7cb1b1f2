package org.partita.examples.voter;

import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The JSON the results page polls every 400 ms: the standings from
 * Results (through JdbcTemplate), their total, and the firehose's
 * throughput and tally.
 */
@RestController
public class ResultsController {
  private final ResultsRepository results;
  private final ThroughputReporter reporter;
  private final VoteTally tally;

  public ResultsController(ResultsRepository results, ThroughputReporter reporter, VoteTally tally) {
    this.results = results;
    this.reporter = reporter;
    this.tally = tally;
  }

  @GetMapping("/api/results")
  public Map<String, Object> results() {
    final Standings standings = results.standings();
    return Map.of("contestants", standings.contestants(), "totalVotes", standings.total(),
        "callsPerSecond", Math.round(reporter.callsPerSecond()), "calls", tally.calls(),
        "accepted", tally.acceptedTotal());
  }
}
