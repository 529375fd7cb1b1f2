package org.partita.sqllogictest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Partita target cancels a statement past the runner's record limit:
 * the record fails as timed out, the statement stops (CANCELLED, rolled
 * back) and the file goes on with the next records on the same database.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PartitaTargetTest {
  private static String script() {
    final StringBuilder values = new StringBuilder();
    for (int x = 0; x < 300; x++) {
      values.append(x == 0 ? "" : ", ").append('(').append(x).append(')');
    }
    return "statement ok\nCREATE TABLE t (x INTEGER NOT NULL)\n\n"
        + "statement ok\nINSERT INTO t VALUES " + values + "\n\n"
        + "query I nosort\nSELECT COUNT(*) FROM t a, t b, t c, t d WHERE a.x + b.x + c.x + d.x < 0\n----\n0\n\n"
        + "query I nosort\nSELECT COUNT(*) FROM t\n----\n300\n";
  }

  private static final class Collector implements RunListener {
    final List<Failure> failures = new ArrayList<>();

    @Override
    public void failed(Failure failure) {
      failures.add(failure);
    }

    @Override
    public void recordDone(String file, int done, int total) {}
  }

  @Test
  void shouldCancelARecordPastItsLimitAndGoOnWithTheFile() {
    final Collector collector = new Collector();
    final FileReport report = new ScriptRunner(new PartitaTarget(2, false), collector, Duration.ofSeconds(3),
        Duration.ofSeconds(30), System::nanoTime).run("forever.test", ScriptParser.parse("forever.test", script()));

    assertEquals(3, report.passed(), collector.failures::toString);
    assertEquals(1, report.failed());
    final String reason = collector.failures.get(0).reason();
    assertTrue(reason.startsWith("timed out after 3 s"), reason);
    assertTrue(reason.contains("the statement was cancelled"), reason);
  }
}
