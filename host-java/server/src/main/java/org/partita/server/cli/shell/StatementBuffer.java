package org.partita.server.cli.shell;

import java.util.ArrayList;
import java.util.List;
import org.partita.server.compiler.ddl.DdlException;
import org.partita.server.compiler.ddl.ScriptSplitter;
import org.partita.server.compiler.ddl.ScriptStatement;

/**
 * Collects shell input line by line and hands out each SQL statement once
 * its terminating {@code ;} arrives (outside strings, quoted identifiers and
 * comments, by the DDL script splitter's rules). Text after the last
 * {@code ;} waits for more lines. Not thread-safe.
 */
final class StatementBuffer {
  private final StringBuilder pending = new StringBuilder();

  /** True iff no partial statement is waiting (only blanks and comments, if anything). */
  boolean isEmpty() {
    return onlyBlanksAndComments(pending.toString());
  }

  private static boolean onlyBlanksAndComments(String text) {
    try {
      return text.isBlank() || ScriptSplitter.split("input", text).isEmpty();
    } catch (DdlException e) {
      return false;
    }
  }

  /** Adds a line; returns the statements it completed (without their ';'), in order. */
  List<String> add(String line) {
    pending.append(line).append('\n');
    final String text = pending.toString();
    final List<ScriptStatement> statements;
    try {
      statements = ScriptSplitter.split("input", text);
    } catch (DdlException e) {
      return List.of();
    }
    final List<String> complete = new ArrayList<>();
    int consumed = 0;
    for (ScriptStatement s : statements) {
      final int end = s.sourceOffset() + s.text().length();
      final int semicolon = text.indexOf(';', end);
      if (semicolon < 0 || !text.substring(end, semicolon).isBlank()) {
        break;
      }
      complete.add(s.text().strip());
      consumed = semicolon + 1;
    }
    pending.delete(0, consumed);
    if (onlyBlanksAndComments(pending.toString())) {
      pending.setLength(0);
    }
    return complete;
  }

  /** The unterminated statement still waiting, if any (end of input runs it). */
  String drain() {
    final String rest = pending.toString().strip();
    pending.setLength(0);
    return rest;
  }
}
