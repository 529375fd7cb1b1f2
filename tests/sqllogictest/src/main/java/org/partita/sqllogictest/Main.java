package org.partita.sqllogictest;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code sqllogictest} command: runs script files against a target and reports, per file and in
 * total, how many records passed, failed and were skipped.
 *
 * <p>Exit status: 0 when the scripts ran (failures are reported, not fatal), 1 when {@code
 * --fail-under} is given and some file's pass rate is below it, 2 on a usage error, a missing file,
 * an unknown target or a target that cannot start.
 */
@Command(
    name = "sqllogictest",
    mixinStandardHelpOptions = true,
    description = "Runs sqllogictest scripts against a database and counts passes and failures.")
public final class Main implements Callable<Integer> {

  static final int EXIT_BELOW_THRESHOLD = 1;
  static final int EXIT_ERROR = 2;

  @Option(names = "--target", paramLabel = "NAME", defaultValue = "partita",
      description = "The database to drive (default: ${DEFAULT-VALUE}); see --list-targets.")
  private String target;

  @Option(names = "--partitioned",
      description = "Ask the target to partition tables instead of replicating them.")
  private boolean partitioned;

  @Option(names = "--verbose", description = "Show each failure's SQL, expected and actual result.")
  private boolean verbose;

  @Option(names = "--max-failures-shown", paramLabel = "N", defaultValue = "10",
      description = "Failures printed per file (default: ${DEFAULT-VALUE}).")
  private int maxFailuresShown;

  @Option(names = "--fail-under", paramLabel = "PCT",
      description = "Exit with status 1 if some file's pass rate is below PCT percent.")
  private Double failUnder;

  @Option(names = "--record-timeout", paramLabel = "SECONDS", defaultValue = "60",
      description = "Time limit of one record (default: ${DEFAULT-VALUE}); a record past it fails "
          + "and the target is asked to cancel it.")
  private double recordTimeoutSeconds;

  @Option(names = "--floors", paramLabel = "FILE",
      description = "Per-file bounds: lines '<path suffix> <min pass %> [<max record seconds>]'; "
          + "exit 1 if a file breaks its line (files without a line fall back to --fail-under).")
  private Path floorsFile;

  @Option(names = "--list-targets", description = "List the available targets and exit.")
  private boolean listTargets;

  @Parameters(paramLabel = "FILE", arity = "0..*",
      description = "Script files, or directories searched recursively for *.test files.")
  private List<Path> paths = List.of();

  private final TargetRegistry registry;
  private final PrintStream out;
  private final PrintStream err;

  /** A command using the targets on {@code registry}, printing to {@code out} and {@code err}. */
  Main(TargetRegistry registry, PrintStream out, PrintStream err) {
    this.registry = registry;
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) {
    final TargetRegistry registry = TargetRegistry.load(Main.class.getClassLoader());
    System.exit(run(registry, System.out, System.err, args));
  }

  /** Parses {@code args}, runs, and returns the exit status. */
  static int run(TargetRegistry registry, PrintStream out, PrintStream err, String... args) {
    final CommandLine commandLine = new CommandLine(new Main(registry, out, err));
    // Later options win, so a wrapper script can pass defaults before the user's arguments.
    commandLine.setOverwrittenOptionsAllowed(true);
    commandLine.setOut(new java.io.PrintWriter(out, true));
    commandLine.setErr(new java.io.PrintWriter(err, true));
    return commandLine.execute(args);
  }

  @Override
  public Integer call() {
    if (listTargets) {
      registry.factories().forEach(f -> out.println(f.name() + "\t" + f.description()));
      return 0;
    }
    final Optional<SqlTargetFactory> factory = registry.find(target);
    if (factory.isEmpty()) {
      err.println("unknown target '" + target + "'; available: " + targetNames());
      return EXIT_ERROR;
    }
    if (paths.isEmpty()) {
      err.println("no script files given");
      return EXIT_ERROR;
    }
    if (!(recordTimeoutSeconds > 0)) {
      err.println("--record-timeout must be a positive number of seconds, found " + recordTimeoutSeconds);
      return EXIT_ERROR;
    }
    final Floors floors;
    try {
      floors = floorsFile == null ? Floors.parse("(none)", List.of()) : Floors.read(floorsFile);
    } catch (IOException | IllegalArgumentException e) {
      err.println("cannot read --floors " + floorsFile + ": " + e.getMessage());
      return EXIT_ERROR;
    }
    try {
      return runFiles(factory.get(), ScriptFiles.expand(paths), floors);
    } catch (IOException e) {
      err.println("cannot read " + e.getMessage());
      return EXIT_ERROR;
    } catch (RuntimeException e) {
      err.println("target '" + target + "' failed: " + e);
      return EXIT_ERROR;
    }
  }

  private int runFiles(SqlTargetFactory factory, List<Path> files, Floors floors) throws IOException {
    final ConsoleReporter reporter =
        new ConsoleReporter(out, err, verbose, maxFailuresShown, System::nanoTime);
    final TargetOptions options = new TargetOptions(partitioned);
    long passed = 0;
    long failed = 0;
    long skipped = 0;
    final List<String> violations = new java.util.ArrayList<>();
    final Duration limit = Duration.ofNanos((long) (recordTimeoutSeconds * 1e9));
    for (final Path file : files) {
      final List<ScriptRecord> records = ScriptParser.parse(file);
      reporter.startFile();
      final FileReport report = new ScriptRunner(factory.create(options), reporter, limit, System::nanoTime)
          .run(file.toString(), records);
      reporter.fileDone(report);
      passed += report.passed();
      failed += report.failed();
      skipped += report.skipped();
      violations.addAll(check(report, floors));
    }
    out.printf(Locale.ROOT, "%d passed, %d failed, %d skipped in %d files%n",
        passed, failed, skipped, files.size());
    violations.forEach(v -> out.println("below bound: " + v));
    return violations.isEmpty() ? 0 : EXIT_BELOW_THRESHOLD;
  }

  /** The bounds {@code report} breaks: its line of {@code floors}, else {@code --fail-under}. */
  private List<String> check(FileReport report, Floors floors) {
    final Optional<Floors.Floor> floor = floors.find(report.file());
    if (floor.isPresent()) {
      return Floors.violations(report, floor.get());
    }
    if (failUnder != null) {
      return Floors.violations(report, new Floors.Floor(report.file(), failUnder, Double.NaN));
    }
    return List.of();
  }

  private String targetNames() {
    return registry.factories().stream().map(SqlTargetFactory::name).toList().toString();
  }
}
