package org.partita.server.cli;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CatalogFileCodec;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.compiler.CompiledStatement;
import org.partita.server.compiler.SourceFile;
import org.partita.server.compiler.ddl.DdlException;
import org.partita.server.planner.ExplainPrinter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code partita compile}: DDL files (and procedure classes) to a catalog
 * file (a versioned header and a CatalogFile message, see
 * {@link CatalogFileCodec}) that programs embedding the engine load,
 * optionally printing every plan. Exit code 1 on a compile error, which
 * names file, line and column.
 */
@Command(name = "compile", mixinStandardHelpOptions = true,
    description = "Compile DDL files into a catalog file (docs/embedding.md) and check every procedure.")
final class CompileCommand implements Callable<Integer> {
  @Parameters(paramLabel = "DDL", arity = "1..*", description = "DDL files, compiled in order as one schema")
  private List<Path> ddl;

  @Option(names = "--classes", paramLabel = "JAR|DIR", split = ",",
      description = "where the procedure classes are (jars or class directories, comma-separated)")
  private List<Path> classes = new ArrayList<>();

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "catalog file to write (default: partita.catalog)")
  private Path output = Path.of("partita.catalog");

  @Option(names = "--explain", description = "print every statement's plan")
  private boolean explain;

  @Override
  public Integer call() throws Exception {
    final List<SourceFile> files = new ArrayList<>();
    for (Path p : ddl) {
      if (!Files.isRegularFile(p)) {
        System.err.println("partita compile: no such file: " + p);
        return 1;
      }
      files.add(new SourceFile(p.toString(), Files.readString(p, StandardCharsets.UTF_8)));
    }
    final long start = System.nanoTime();
    final CompiledCatalog catalog;
    try (URLClassLoader loader = new URLClassLoader(urls(), CompileCommand.class.getClassLoader())) {
      catalog = new CatalogCompiler(loader).compile(files);
    } catch (DdlException e) {
      System.err.println(e.getMessage());
      return 1;
    }
    Files.write(output, CatalogFileCodec.encode(catalog));
    System.out.printf("compiled %d table(s) and view(s), %d procedure(s), %d plan(s) in %.0f ms into %s%n",
        catalog.schema().tables().size(), catalog.procedures().size(),
        catalog.engineCatalog().getStatementsCount(), (System.nanoTime() - start) / 1e6, output);
    if (explain) {
      printPlans(catalog);
    }
    return 0;
  }

  private URL[] urls() throws MalformedURLException {
    final List<URL> urls = new ArrayList<>();
    for (Path p : classes) {
      final File f = p.toFile();
      urls.add(f.toURI().toURL());
    }
    return urls.toArray(new URL[0]);
  }

  private static void printPlans(CompiledCatalog catalog) {
    for (CompiledProcedure procedure : catalog.procedures().values()) {
      System.out.println();
      System.out.println("PROCEDURE " + procedure.name() + (procedure.singlePartition()
          ? " (single partition: parameter " + (procedure.partition().parameterIndex() + 1) + " on "
              + procedure.partition().table() + "." + procedure.partition().column() + ")" : " (multi-partition)"));
      for (Map.Entry<String, CompiledStatement> s : procedure.statements().entrySet()) {
        System.out.println("  " + s.getKey() + ": " + s.getValue().planned().sql());
        System.out.print(ExplainPrinter.explain(s.getValue().planned()).indent(4));
      }
    }
  }
}
