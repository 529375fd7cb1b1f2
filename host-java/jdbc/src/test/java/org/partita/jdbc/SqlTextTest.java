package org.partita.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SqlTextTest {
  @Test
  void shouldCountPlaceholdersOutsideLiteralsNamesAndComments() {
    assertEquals(2, SqlText.placeholders("SELECT * FROM t WHERE a = ? AND b = ?"));
    assertEquals(1, SqlText.placeholders("SELECT '?', \"?\" FROM t -- ?\n WHERE a = ? /* ? */"));
    assertEquals(0, SqlText.placeholders("SELECT 'it''s ?' FROM t"));
    assertEquals(0, SqlText.placeholders("SELECT 'open ?"));
  }

  @Test
  void shouldFindTheFirstKeyword() {
    assertEquals("SELECT", SqlText.firstKeyword("  -- note\n /* c */ (select 1)"));
    assertEquals("", SqlText.firstKeyword("   "));
    assertTrue(SqlText.isDml("insert into t values (1)"));
    assertTrue(SqlText.isDml("/* x */ UPDATE t SET a = 1"));
    assertFalse(SqlText.isDml("SELECT * FROM t"));
    assertFalse(SqlText.isDml("CREATE TABLE t (a INTEGER)"));
  }
}
