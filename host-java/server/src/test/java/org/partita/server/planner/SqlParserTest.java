package org.partita.server.planner;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SqlParserTest {
  @Test
  void shouldParseDeeplyNestedExpressionsWithoutBacktrackingForever() {
    // Shaped like the sqllogictest index/between files, which took seconds per
    // statement in JSqlParser's complex mode.
    final String sql = "SELECT pk FROM tab0 WHERE ((col0 > 7 AND (col3 BETWEEN 1 AND 5 OR ((col4 < 2.5)"
        + " AND col1 IN (SELECT col4 FROM tab0 WHERE (col3 >= 9))) OR (col0 <= 3 AND ((col1 > 8.1)))))"
        + " OR (((col4 = 2) AND col3 < 4) OR col0 IS NULL))";
    assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertNotNull(SqlPlanner.parse(sql)));
  }
}
