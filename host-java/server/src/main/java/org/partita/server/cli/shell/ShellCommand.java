package org.partita.server.cli.shell;

import java.util.Locale;
import java.util.Map;

/**
 * One shell command: a line whose first word (any case) names a command,
 * read only where a statement starts, ending at the end of the line; a
 * trailing {@code ;} is dropped. Everything else is SQL. Immutable.
 *
 * @param kind which command
 * @param argument the rest of the line, stripped (may be empty)
 */
record ShellCommand(Kind kind, String argument) {
  /** The commands of the shell. */
  enum Kind { EXEC, FILE, EXPLAIN, SHOW, HISTORY, HELP, QUIT }

  private static final Map<String, Kind> WORDS = Map.of(
      "exec", Kind.EXEC, "execute", Kind.EXEC, "file", Kind.FILE, "explain", Kind.EXPLAIN, "show", Kind.SHOW,
      "history", Kind.HISTORY, "help", Kind.HELP, "quit", Kind.QUIT, "exit", Kind.QUIT);

  /** The command {@code line} holds, or null when the line is (the start of) SQL. */
  static ShellCommand parse(String line) {
    String text = line.strip();
    if (text.endsWith(";")) {
      text = text.substring(0, text.length() - 1).strip();
    }
    int end = 0;
    while (end < text.length() && !Character.isWhitespace(text.charAt(end)) && text.charAt(end) != ';') {
      end++;
    }
    final Kind kind = WORDS.get(text.substring(0, end).toLowerCase(Locale.ROOT));
    return kind == null ? null : new ShellCommand(kind, text.substring(end).strip());
  }
}
