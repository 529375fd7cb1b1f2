package org.partita.server.cli.shell;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * Feeds a {@link SqlShell} the lines typed at a terminal, with line editing
 * (JLine): prompt {@code partita> }, {@code      -> } while a statement
 * waits for its {@code ;}; Ctrl-C drops the statement being typed, or,
 * while a statement runs, asks the server to stop it (the shell stays); Ctrl-D
 * (or {@code quit}) leaves. History persists in a file when it can be
 * written; a history file that cannot be written is ignored. Runs on the
 * calling thread.
 */
public final class InteractiveShell {
  static final String PROMPT = "partita> ";
  static final String CONTINUATION_PROMPT = "     -> ";

  private InteractiveShell() {}

  /**
   * Reads and runs lines until Ctrl-D or {@code quit}; returns the shell's
   * exit code. {@code cancelRunning} runs (on a signal thread) when Ctrl-C
   * comes while a statement runs.
   */
  public static int run(SqlShell shell, Path historyFile, Runnable cancelRunning) throws IOException {
    try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
      return run(terminal, shell, historyFile, cancelRunning);
    }
  }

  /** {@link #run(SqlShell, Path, Runnable)} on {@code terminal} (not closed here); historyFile may be null. */
  static int run(Terminal terminal, SqlShell shell, Path historyFile, Runnable cancelRunning) {
    // Outside readLine (which handles Ctrl-C itself) SIGINT means: stop the running statement, not the shell.
    terminal.handle(Terminal.Signal.INT, signal -> cancelRunning.run());
    final LineReader reader = reader(terminal, historyFile);
    while (!shell.stopped()) {
      final String line;
      try {
        line = reader.readLine(shell.continuing() ? CONTINUATION_PROMPT : PROMPT);
      } catch (UserInterruptException e) {
        shell.cancelStatement();
        continue;
      } catch (EndOfFileException e) {
        break;
      }
      shell.accept(line);
    }
    saveHistory(reader);
    return shell.exitCode();
  }

  private static LineReader reader(Terminal terminal, Path historyFile) {
    final DefaultParser parser = new DefaultParser();
    parser.setEscapeChars(null);
    final LineReaderBuilder builder = LineReaderBuilder.builder()
        .terminal(terminal)
        .appName("partita")
        .parser(parser)
        .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
        .option(LineReader.Option.HISTORY_IGNORE_SPACE, false);
    if (historyFile != null && writable(historyFile)) {
      builder.variable(LineReader.HISTORY_FILE, historyFile);
    }
    return builder.build();
  }

  private static boolean writable(Path file) {
    return Files.exists(file) ? Files.isWritable(file)
        : file.toAbsolutePath().getParent() != null && Files.isWritable(file.toAbsolutePath().getParent());
  }

  private static void saveHistory(LineReader reader) {
    try {
      reader.getHistory().save();
    } catch (IOException | RuntimeException e) {
      // A history that cannot be written is not worth an error at exit.
      return;
    }
  }
}
