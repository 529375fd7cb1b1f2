package org.partita.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class JdbcUrlTest {
  @Test
  void shouldReadServersWithDefaultPortsAndProperties() throws SQLException {
    final JdbcUrl url = JdbcUrl.parse("jdbc:partita://h1:21213, h2 ,[::1]:5/?callTimeoutMs=250&reconnect=false", null);
    assertEquals(List.of("h1:21213", "h2:21212", "[::1]:5"), url.servers());
    assertEquals(Duration.ofMillis(250), url.clientConfig().callTimeout());
    assertFalse(url.clientConfig().reconnect());
  }

  @Test
  void shouldLetPropertiesOverrideTheUrlAndIgnoreUserAndPassword() throws SQLException {
    final Properties info = new Properties();
    info.setProperty("callTimeoutMs", "900");
    info.setProperty("user", "sa");
    info.setProperty("password", "");
    final JdbcUrl url = JdbcUrl.parse("jdbc:partita://h1?callTimeoutMs=250", info);
    assertEquals(Duration.ofMillis(900), url.clientConfig().callTimeout());
  }

  @Test
  void shouldAcceptOnlyPartitaUrls() {
    assertTrue(JdbcUrl.accepts("jdbc:partita://x"));
    assertFalse(JdbcUrl.accepts("jdbc:postgresql://x"));
    assertFalse(JdbcUrl.accepts(null));
  }

  @Test
  void shouldRejectMalformedUrlsNamingWhat() {
    assertRejected("jdbc:partita://", "empty");
    assertRejected("jdbc:partita://h1,,h2", "empty");
    assertRejected("jdbc:partita://h1:x", "port 'x'");
    assertRejected("jdbc:partita://h1:70000", "outside 1..65535");
    assertRejected("jdbc:partita://h1?callTimeout=5", "unknown property 'callTimeout'");
    assertRejected("jdbc:partita://h1?callTimeoutMs=-5", "must be positive");
    assertRejected("jdbc:partita://h1?callTimeoutMs=soon", "must be a number");
    assertRejected("jdbc:partita://h1?reconnect=yes", "true or false");
    assertRejected("jdbc:partita://h1?novalue", "not key=value");
  }

  private static void assertRejected(String url, String why) {
    final SQLException e = assertThrows(SQLException.class, () -> JdbcUrl.parse(url, null));
    assertEquals("08001", e.getSQLState());
    assertTrue(e.getMessage().contains(why), e.getMessage());
  }
}
