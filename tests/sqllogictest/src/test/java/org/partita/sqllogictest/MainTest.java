package org.partita.sqllogictest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {

  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final List<TargetOptions> optionsSeen = new ArrayList<>();
  private final List<ScriptedTarget> created = new ArrayList<>();

  /** A registry with {@code scripted}, which answers like ScriptedTarget.forSample(). */
  private TargetRegistry registry() {
    final SqlTargetFactory scripted = new SqlTargetFactory() {
      @Override
      public String name() {
        return "scripted";
      }

      @Override
      public SqlTarget create(TargetOptions options) {
        optionsSeen.add(options);
        final ScriptedTarget target = ScriptedTarget.forSample();
        created.add(target);
        return target;
      }
    };
    return new TargetRegistry(List.of(scripted, new NoDatabaseTargetFactory()));
  }

  private int run(String... args) {
    return Main.run(registry(), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), args);
  }

  private String stdout() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private Path writeSample(String relative) throws IOException {
    final Path file = dir.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, ScriptRunnerTest.sampleText());
    return file;
  }

  @Test
  void shouldPrintOneLinePerFileAndTotals() throws IOException {
    final Path file = writeSample("a.test");

    assertEquals(0, run("--target", "scripted", file.toString()));
    assertTrue(stdout().contains(file + ": 8 passed, 6 failed, 3 skipped (57.14%)"), stdout());
    assertTrue(stdout().contains(file + ":10: statement failed"), stdout());
    assertTrue(stdout().endsWith("8 passed, 6 failed, 3 skipped in 1 files" + System.lineSeparator()));
  }

  @Test
  void shouldExpandDirectoriesRecursivelyAndCreateATargetPerFile() throws IOException {
    writeSample("x/one.test");
    writeSample("x/deeper/two.test");
    Files.writeString(dir.resolve("x/notes.txt"), "not a script");

    assertEquals(0, run("--target", "scripted", dir.toString()));
    assertEquals(2, created.size());
    assertTrue(created.stream().allMatch(t -> t.closed && t.resets == 1));
    assertTrue(stdout().contains("16 passed, 12 failed, 6 skipped in 2 files"), stdout());
  }

  @Test
  void shouldShowSqlExpectedAndActualWhenVerbose() throws IOException {
    final Path file = writeSample("a.test");

    run("--target", "scripted", "--verbose", file.toString());
    assertTrue(stdout().contains(file + ":46: wrong result\n  sql:\n    SELECT count(*) FROM t1\n"
        + "  expected:\n    3\n  actual:\n    2\n"), stdout());
  }

  @Test
  void shouldLimitFailuresShownPerFile() throws IOException {
    final Path file = writeSample("a.test");

    run("--target", "scripted", "--max-failures-shown", "2", file.toString());
    assertTrue(stdout().contains("(4 more failures not shown)"), stdout());
    assertTrue(!stdout().contains(":46:"), stdout());
  }

  @Test
  void shouldExitWithOneOnlyWhenAFileIsBelowFailUnder() throws IOException {
    final Path file = writeSample("a.test");

    assertEquals(0, run("--target", "scripted", "--fail-under", "50", file.toString()));
    assertEquals(Main.EXIT_BELOW_THRESHOLD,
        run("--target", "scripted", "--fail-under", "60", file.toString()));
  }

  @Test
  void shouldPassPartitionedToTheFactory() throws IOException {
    final Path file = writeSample("a.test");

    run("--target", "scripted", file.toString());
    run("--target", "scripted", "--partitioned", file.toString());
    assertEquals(List.of(new TargetOptions(false), new TargetOptions(true)), optionsSeen);
  }

  @Test
  void shouldLetTheLastTargetOptionWin() throws IOException {
    final Path file = writeSample("a.test");

    assertEquals(0, run("--target", "missing", "--target", "scripted", file.toString()));
  }

  @Test
  void shouldRejectUnknownTargetsAndMissingFiles() throws IOException {
    assertEquals(Main.EXIT_ERROR, run("--target", "nosuch", writeSample("a.test").toString()));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("available: [scripted, none]"));
    assertEquals(Main.EXIT_ERROR, run("--target", "none", dir.resolve("absent.test").toString()));
  }

  @Test
  void shouldRunTheNoDatabaseTarget() throws IOException {
    final Path file = writeSample("a.test");

    assertEquals(0, run("--target", "none", file.toString()));
    assertTrue(stdout().contains(file + ": 2 passed, 12 failed, 3 skipped (14.29%)"), stdout());
  }

  @Test
  void shouldFindTheNoDatabaseTargetThroughServiceLoader() {
    final TargetRegistry loaded = TargetRegistry.load(MainTest.class.getClassLoader());

    assertTrue(loaded.find("none").isPresent());
  }
}
