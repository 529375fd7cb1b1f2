package org.partita.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLSyntaxErrorException;
import org.junit.jupiter.api.Test;

class CallEscapeTest {
  @Test
  void shouldReadPlaceholdersAndLiterals() throws SQLException {
    final CallEscape call = CallEscape.parse(" { call Vote(?, 3, ?, 'it''s, ok', -1.5, NULL) } ");
    assertEquals("Vote", call.procedure());
    assertEquals(2, call.placeholders());
    assertArrayEquals(new Object[] {7L, 3L, "x", "it's, ok", new BigDecimal("-1.5"), null},
        call.bind(new Object[] {7L, "x"}));
  }

  @Test
  void shouldReadCallsWithoutBracesOrArguments() throws SQLException {
    assertEquals("Results", CallEscape.parse("{call Results}").procedure());
    assertEquals(0, CallEscape.parse("call Results()").arguments().size());
    assertEquals("@Ping", CallEscape.parse("{call @Ping()}").procedure());
  }

  @Test
  void shouldTellCallsFromOtherSql() {
    assertTrue(CallEscape.isCall("{call Vote(?, ?, ?)}"));
    assertTrue(CallEscape.isCall("  CALL Results"));
    assertTrue(CallEscape.isCall("{? = call F(?)}"));
    assertFalse(CallEscape.isCall("SELECT * FROM calls"));
  }

  @Test
  void shouldRejectMalformedCallsNamingWhat() {
    assertSyntax("{call Vote(?, ?}", "expected {call");
    assertSyntax("{call Vote(?, ?)", "expected {call");
    assertSyntax("{call Vote(?, 'open)}", "not closed");
    assertSyntax("{call Vote(?, x + 1)}", "argument 2");
    assertSyntax("{call Vote(99999999999999999999)}", "outside BIGINT");
    assertThrows(SQLFeatureNotSupportedException.class, () -> CallEscape.parse("{? = call F(?)}"));
  }

  private static void assertSyntax(String sql, String why) {
    final SQLSyntaxErrorException e = assertThrows(SQLSyntaxErrorException.class, () -> CallEscape.parse(sql));
    assertEquals("42000", e.getSQLState());
    assertTrue(e.getMessage().contains(why), e.getMessage());
  }
}
