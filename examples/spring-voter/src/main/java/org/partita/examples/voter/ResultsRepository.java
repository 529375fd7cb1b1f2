package org.partita.examples.voter;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * Reads the standings through JdbcTemplate on the Partita JDBC driver:
 * {@code {call Results}} is one multi-partition call of the Results
 * procedure. Thread-safe.
 */
@Repository
public class ResultsRepository {
  private final JdbcTemplate jdbc;

  public ResultsRepository(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  public Standings standings() {
    return new Standings(jdbc.query("{call Results}", (rs, row) -> new Standings.Contestant(
        rs.getInt("CONTESTANT_NUMBER"), rs.getString("CONTESTANT_NAME"), rs.getLong("TOTAL_VOTES"))));
  }
}
