package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JDBC driver under HikariCP against real servers: pooled connections
 * checked with isValid (@Ping) vote from several threads and the database
 * agrees; then the server goes away and the driver says so with connection
 * SQLStates (class 08), isValid turns false, and the pool refuses new
 * connections within its timeout.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class JdbcHikariTest {
  private static final int THREADS = 4;

  static {
    // HikariCP skips isValid for a connection used in the last 500 ms; check on every borrow here, so that
    // after the server stops no pooled connection can be handed out without asking the server.
    System.setProperty("com.zaxxer.hikari.aliveBypassWindowMs", "0");
  }
  private static final int VOTES_PER_THREAD = 300;

  private static HikariDataSource pool(ServerProcess server) {
    final HikariConfig config = new HikariConfig();
    config.setJdbcUrl(JdbcDriverTest.url(server) + "?connectTimeoutMs=2000&callTimeoutMs=5000");
    config.setMaximumPoolSize(THREADS);
    config.setConnectionTimeout(1500);
    config.setValidationTimeout(1000);
    config.setPoolName("partita-test");
    return new HikariDataSource(config);
  }

  @Test
  void shouldVoteFromPooledConnectionsAndSeeEveryVote() throws Exception {
    try (ServerProcess server = ServerProcess.voter(2); HikariDataSource pool = pool(server)) {
      try (Connection c = pool.getConnection(); CallableStatement init = c.prepareCall("{call Initialize(6, ?)}")) {
        init.setString(1, "A,B,C,D,E,F");
        init.execute();
      }
      final ExecutorService threads = Executors.newFixedThreadPool(THREADS);
      try {
        final List<Future<Long>> accepted = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          final int thread = t;
          accepted.add(threads.submit(() -> vote(pool, thread)));
        }
        long total = 0;
        for (Future<Long> f : accepted) {
          total += f.get(2, TimeUnit.MINUTES);
        }
        assertEquals(THREADS * VOTES_PER_THREAD, total);
        try (Connection c = pool.getConnection(); Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM votes")) {
          assertTrue(rs.next());
          assertEquals(total, rs.getLong(1));
        }
      } finally {
        threads.shutdownNow();
      }
    }
  }

  /** One thread's votes, each on a connection borrowed for it; returns how many were accepted. */
  private static long vote(HikariDataSource pool, int thread) throws SQLException {
    long accepted = 0;
    for (int i = 0; i < VOTES_PER_THREAD; i++) {
      try (Connection c = pool.getConnection(); CallableStatement vote = c.prepareCall("{call Vote(?, ?, ?)}")) {
        vote.setLong(1, 6170000000L + thread * 100_000L + i);
        vote.setInt(2, 1 + i % 6);
        vote.setLong(3, 1);
        try (ResultSet rs = vote.executeQuery()) {
          rs.next();
          accepted += rs.getLong(1) == 0 ? 1 : 0;
        }
      }
    }
    return accepted;
  }

  @Test
  void shouldReportAServerThatWentAway() throws Exception {
    try (ServerProcess server = ServerProcess.voter(1); HikariDataSource pool = pool(server)) {
      final Connection held = pool.getConnection();
      assertTrue(held.isValid(2));
      assertEquals(0, server.terminate(30));
      final SQLException e = assertThrows(SQLException.class, () -> {
        try (Statement s = held.createStatement()) {
          s.executeQuery("SELECT COUNT(*) FROM votes");
        }
      });
      assertTrue(e.getSQLState().startsWith("08"), e.getSQLState() + " " + e.getMessage());
      assertFalse(held.isValid(1));
      held.close();
      assertThrows(SQLTransientConnectionException.class, pool::getConnection);
    }
  }
}
