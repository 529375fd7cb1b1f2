package org.partita.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryTest {
  @TempDir
  Path dir;

  @Test
  void shouldWriteTheReadmesFormat() throws Exception {
    final Path file = dir.resolve("h.jsonl");
    try (History h = new History(file)) {
      h.invoke(3, "cas", "7", "[5,6]");
      h.complete(3, Outcome.OK, "cas", "7", "true", null);
      h.invoke(4, "write", "7", "8");
      h.complete(4, Outcome.INFO, "write", "7", "ignored", "CallTimeoutException: \"late\"");
      h.nemesis("kill", "start", 1, "scheduled at 5 ms");
      h.nemesis("kill", "end", 1, "hosts 127.0.0.1:5");
      h.finalRead(1_000_000, "read", "7", "127.0.0.1:5", h.now(), "6");
      assertEquals(1, h.faults().size());
      assertEquals(2, h.completions().size());
    }
    final List<String> lines = Files.readAllLines(file);
    assertEquals(8, lines.size());
    assertTrue(lines.get(0).matches("\\{\"process\":3,\"type\":\"invoke\",\"f\":\"cas\",\"key\":\"7\","
        + "\"value\":\\[5,6\\],\"time\":\\d+\\}"), lines.get(0));
    assertTrue(lines.get(1).matches("\\{\"process\":3,\"type\":\"ok\",\"f\":\"cas\",\"key\":\"7\",\"value\":true,"
        + "\"time\":\\d+\\}"), lines.get(1));
    assertTrue(lines.get(3).startsWith("{\"process\":4,\"type\":\"info\",\"f\":\"write\",\"key\":\"7\",\"time\":"),
        lines.get(3));
    assertTrue(lines.get(3).endsWith(",\"error\":\"CallTimeoutException: \\\"late\\\"\"}"), lines.get(3));
    assertTrue(lines.get(4).startsWith("{\"type\":\"nemesis\",\"f\":\"kill\",\"value\":{\"phase\":\"start\","), lines.get(4));
    assertTrue(lines.get(7).contains("\"final\":true,\"host\":\"127.0.0.1:5\""), lines.get(7));
  }

  @Test
  void shouldRefuseACompletionWithNothingOpen() throws Exception {
    try (History h = new History(dir.resolve("h.jsonl"))) {
      assertThrows(IllegalStateException.class, () -> h.complete(1, Outcome.OK, "read", null, "1", null));
    }
  }
}
