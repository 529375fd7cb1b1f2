package org.partita.sqllogictest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class FloorsTest {

  private static final Floors FLOORS = Floors.parse("floors.txt", List.of(
      "# file  min%  max-record-s",
      "",
      "evidence/in1.test 97.0",
      "joins/four.test 100 1.5"));

  @Test
  void shouldMatchAFileByTheEndOfItsPath() {
    assertEquals(97.0, FLOORS.find("/work/shared/sqllogictest/evidence/in1.test").orElseThrow().minPassRate());
    assertTrue(FLOORS.find("/x/notevidence/in1.test").isEmpty());
    assertTrue(FLOORS.find("/x/evidence/in2.test").isEmpty());
  }

  @Test
  void shouldReportARateBelowTheFloorAndASlowRecord() {
    final Floors.Floor floor = FLOORS.find("tests/sql/joins/four.test").orElseThrow();
    final FileReport slow = new FileReport("four.test", 9, 1, 0,
        new FileTiming(3_000_000_000L, new Location("four.test", 12), 2_000_000_000L));

    final List<String> found = Floors.violations(slow, floor);

    assertEquals(2, found.size());
    assertEquals("four.test: pass rate 90.00% is below its floor 100.00%", found.get(0));
    assertEquals("four.test: the record at four.test:12 took 2.000 s, over its limit of 1.5 s", found.get(1));
    assertTrue(Floors.violations(new FileReport("four.test", 10, 0, 0), floor).isEmpty());
  }

  @Test
  void shouldNameTheLineOfAMalformedEntry() {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Floors.parse("floors.txt", List.of("a.test 100", "b.test lots")));
    assertTrue(e.getMessage().startsWith("floors.txt:2: not a number"), e.getMessage());
  }
}
