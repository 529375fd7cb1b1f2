package org.partita.server.cli.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.partita.client.ClientResponse;

/**
 * The {@code partita sql} shell: reads input line by line, runs each SQL
 * statement (ended by {@code ;}, possibly over several lines) as
 * {@code @AdHoc} and each shell command ({@code exec}, {@code file},
 * {@code explain}, {@code show}, {@code history}, {@code help},
 * {@code quit}) as it arrives, prints results on {@code out} and one
 * {@code ERROR: <name>: <message>} line per failure on {@code err}.
 *
 * <p>Where the lines come from is the caller's business: {@link #runScript}
 * reads a stream to its end (non-interactive use), {@link InteractiveShell}
 * feeds the lines typed at a terminal. In interactive mode the shell also
 * prints the time of each statement and {@code OK} for answers without
 * tables. Confined to one thread.
 */
public final class SqlShell {
  /** How deep {@code file} commands may nest; deeper means a file that includes itself. */
  static final int MAX_FILE_DEPTH = 16;

  private final ProcedureCaller caller;
  private final PrintStream out;
  private final PrintStream err;
  private final boolean interactive;
  private final boolean stopOnError;
  private final ResponsePrinter printer;
  private final StatementBuffer input = new StatementBuffer();
  private final List<String> history = new ArrayList<>();
  private String where = "";
  private int fileDepth;
  private boolean failed;
  private boolean stopped;

  /**
   * @param caller calls the server
   * @param out where results go
   * @param err where errors go
   * @param interactive print timings and {@code OK} (for a person at a terminal)
   * @param stopOnError stop at the first failure
   */
  public SqlShell(ProcedureCaller caller, PrintStream out, PrintStream err, boolean interactive,
      boolean stopOnError) {
    this.caller = caller;
    this.out = out;
    this.err = err;
    this.interactive = interactive;
    this.stopOnError = stopOnError;
    this.printer = new ResponsePrinter(out, interactive);
  }

  /**
   * Runs every statement and command of {@code in} to its end (or to
   * {@code quit}, or to the first failure with stop-on-error); an
   * unterminated statement at the end runs too. Returns {@link #exitCode()}.
   */
  public int runScript(BufferedReader in, String name) throws IOException {
    runLines(in, name, input);
    return exitCode();
  }

  /** Runs the statements and commands of a file, as the {@code file} command does. Returns {@link #exitCode()}. */
  public int runFile(String path) {
    runFileCommand(path);
    return exitCode();
  }

  /** 0 when every statement and command succeeded, 1 when any failed. */
  public int exitCode() {
    return failed ? 1 : 0;
  }

  /** True once the shell should read no more input: {@code quit}, or a failure with stop-on-error. */
  public boolean stopped() {
    return stopped;
  }

  /** Takes one line typed at the top level; runs what it completes. */
  void accept(String line) {
    acceptLine(line, input, true);
  }

  /** True iff a statement has begun and waits for its {@code ;}. */
  boolean continuing() {
    return !input.isEmpty();
  }

  /** Forgets the statement being typed (Ctrl-C). */
  void cancelStatement() {
    input.drain();
  }

  private void runLines(BufferedReader in, String name, StatementBuffer buffer) throws IOException {
    final boolean topLevel = buffer == input;
    int lineNumber = 0;
    String line;
    while (!stopped && (line = in.readLine()) != null) {
      lineNumber++;
      where = " (at " + name + ":" + lineNumber + ")";
      acceptLine(line, buffer, topLevel);
    }
    final String rest = buffer.drain();
    if (!stopped && !rest.isEmpty()) {
      runUnit(rest + ";", topLevel, () -> runSql(rest));
    }
  }

  private void acceptLine(String line, StatementBuffer buffer, boolean topLevel) {
    if (buffer.isEmpty()) {
      final ShellCommand command = ShellCommand.parse(line);
      if (command != null) {
        runUnit(line.strip(), topLevel, () -> runCommand(command));
        return;
      }
    }
    for (String statement : buffer.add(line)) {
      if (stopped) {
        return;
      }
      if (!statement.isEmpty()) {
        runUnit(statement + ";", topLevel, () -> runSql(statement));
      }
    }
  }

  /** Runs one statement or command, records it and its outcome, and times it in interactive mode. */
  private void runUnit(String text, boolean topLevel, Supplier<ShellError> unit) {
    if (topLevel) {
      history.add(text);
    }
    final long start = System.nanoTime();
    final ShellError error = unit.get();
    if (error != null) {
      failed = true;
      err.println(error.line() + (interactive && fileDepth == 0 ? "" : where));
      err.flush();
      stopped |= stopOnError;
    } else if (interactive && fileDepth == 0 && !stopped) {
      out.printf(Locale.ROOT, "Time: %.3f ms%n", (System.nanoTime() - start) / 1e6);
    }
    out.flush();
  }

  private ShellError runSql(String sql) {
    return call(response -> printer.printStatement(sql, response), "@AdHoc", sql);
  }

  private ShellError call(Consumer<ClientResponse> print, String procedure,
      Object... parameters) {
    final ClientResponse response;
    try {
      response = caller.call(procedure, parameters);
    } catch (RuntimeException e) {
      return ShellError.of(e);
    }
    print.accept(response);
    return null;
  }

  private ShellError runCommand(ShellCommand command) {
    final String arg = command.argument();
    switch (command.kind()) {
      case EXEC:
        return exec(arg);
      case FILE:
        return arg.isEmpty() ? usage("file needs a path: file path.sql") : runFileCommand(unquote(arg));
      case EXPLAIN:
        return arg.isEmpty() ? usage("explain needs a statement: explain SELECT ...")
            : call(printer::printPlan, "@Explain", arg);
      case SHOW:
        return arg.isEmpty() || arg.contains(" ")
            ? usage("show needs one of: tables, procedures, columns, indexes, hosts (got '" + arg + "')")
            : call(printer::printTables, "@SystemCatalog", arg.toUpperCase(Locale.ROOT));
      case HISTORY:
        return arg.isEmpty() ? printHistory() : usage("history takes no arguments");
      case HELP:
        out.print(HELP);
        return null;
      case QUIT:
        stopped = true;
        return null;
      default:
        throw new IllegalStateException("unhandled command " + command.kind());
    }
  }

  private ShellError exec(String arg) {
    if (arg.isEmpty()) {
      return usage("exec needs a procedure name: exec Procedure [arg ...]");
    }
    int end = 0;
    while (end < arg.length() && !Character.isWhitespace(arg.charAt(end)) && arg.charAt(end) != ',') {
      end++;
    }
    final String procedure = arg.substring(0, end);
    final List<Object> parameters;
    try {
      parameters = ExecArguments.parse(arg.substring(end));
    } catch (IllegalArgumentException e) {
      return new ShellError("BAD_ARGUMENT", "exec " + procedure + ": " + e.getMessage() + " of the arguments");
    }
    return call(printer::printProcedure, procedure, parameters.toArray());
  }

  private ShellError runFileCommand(String pathText) {
    if (fileDepth >= MAX_FILE_DEPTH) {
      return new ShellError(ShellError.FILE_ERROR, "file " + pathText + ": files nest deeper than "
          + MAX_FILE_DEPTH + " levels (does a file run itself?)");
    }
    final Path path;
    try {
      path = Path.of(pathText);
    } catch (InvalidPathException e) {
      return new ShellError(ShellError.FILE_ERROR, "bad file name: " + e.getMessage());
    }
    final String outerWhere = where;
    fileDepth++;
    try (BufferedReader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      runLines(in, pathText, new StatementBuffer());
      return null;
    } catch (NoSuchFileException e) {
      return new ShellError(ShellError.FILE_ERROR, "no such file: " + path.toAbsolutePath());
    } catch (IOException e) {
      return new ShellError(ShellError.FILE_ERROR, "cannot read " + path.toAbsolutePath() + ": " + e);
    } finally {
      fileDepth--;
      where = outerWhere;
    }
  }

  private ShellError printHistory() {
    for (int i = 0; i < history.size(); i++) {
      out.printf(Locale.ROOT, "%5d  %s%n", i + 1, history.get(i).replace("\n", "\n       "));
    }
    return null;
  }

  private static ShellError usage(String message) {
    return new ShellError(ShellError.BAD_COMMAND, message);
  }

  private static String unquote(String text) {
    if (text.length() >= 2 && (text.startsWith("'") && text.endsWith("'")
        || text.startsWith("\"") && text.endsWith("\""))) {
      return text.substring(1, text.length() - 1);
    }
    return text;
  }

  static final String HELP = """
      SQL statements end with ';' and may span lines; each runs as @AdHoc (one transaction).
      Commands (any case, one line each, a trailing ';' is optional):
        exec Procedure [arg ...]   call a procedure (also: execute); args: 42, 1.5, 'text', NULL
        explain SQL                show the plan of a statement without running it (@Explain)
        show tables                list tables and views (@SystemCatalog; also: procedures,
                                   columns, indexes, hosts)
        file path.sql              run the statements and commands of a file
        history                    list this session's statements and commands
        help                       this text
        quit, exit                 leave (Ctrl-D too; Ctrl-C drops the statement being typed)
      """;
}
