package org.partita.server.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ParserWorkaroundsTest {
  @Test
  void shouldFoldRunsOfSignsIntoTheirProduct() {
    assertEquals("SELECT + 1, - x", ParserWorkarounds.rewrite("SELECT - - 1, + - x"));
    assertEquals("SELECT 2 * - 3", ParserWorkarounds.rewrite("SELECT 2 * - + 3"));
    assertEquals("SELECT a + b", ParserWorkarounds.rewrite("SELECT a - - b"));
  }

  @Test
  void shouldLeaveSingleSignsStringsAndCommentsAlone() {
    assertEquals("SELECT a - b, '- -', \"- +\" -- - -\n", ParserWorkarounds.rewrite("SELECT a - b, '- -', \"- +\" -- - -\n"));
    assertEquals("SELECT 1e-5 /* + - */", ParserWorkarounds.rewrite("SELECT 1e-5 /* + - */"));
  }

  @Test
  void shouldDropTheAllQuantifierAfterAParenthesis() {
    assertEquals("SELECT SUM( - x), COUNT( y), ALLOWED(allx)", ParserWorkarounds.rewrite(
        "SELECT SUM( ALL - x), COUNT( all y), ALLOWED(allx)"));
  }
}
