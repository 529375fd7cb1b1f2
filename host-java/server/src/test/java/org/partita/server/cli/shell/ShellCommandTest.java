package org.partita.server.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ShellCommandTest {
  @Test
  void shouldRecogniseCommandsInAnyCaseWithATrailingSemicolon() {
    assertEquals(new ShellCommand(ShellCommand.Kind.EXEC, "Vote 1, 'x'"),
        ShellCommand.parse("  ExEcUtE Vote 1, 'x' ;"));
    assertEquals(new ShellCommand(ShellCommand.Kind.SHOW, "tables"), ShellCommand.parse("SHOW tables;"));
    assertEquals(new ShellCommand(ShellCommand.Kind.QUIT, ""), ShellCommand.parse("exit;"));
    assertEquals(new ShellCommand(ShellCommand.Kind.EXPLAIN, "SELECT 1"), ShellCommand.parse("explain SELECT 1;"));
  }

  @Test
  void shouldLeaveSqlAndLookalikeWordsToTheStatementBuffer() {
    assertNull(ShellCommand.parse("SELECT * FROM t;"));
    assertNull(ShellCommand.parse("executor_count;"));
    assertNull(ShellCommand.parse("showtables"));
    assertNull(ShellCommand.parse(""));
    assertNull(ShellCommand.parse("-- exec Vote 1"));
  }
}
