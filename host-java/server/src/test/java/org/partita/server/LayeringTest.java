package org.partita.server;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The server's packages depend on each other only as ARCHITECTURE.md's
 * table allows; the build fails otherwise. Each layer lists the layers that
 * may use it ("may only be accessed by"), which is the table read the other
 * way round. Change the table and this test together.
 */
class LayeringTest {
  private static final JavaClasses SERVER = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("org.partita.server");

  @Test
  void shouldKeepThePackagesToTheTableInArchitectureMd() {
    final ArchRule rule = layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("error").definedBy("org.partita.server.error..")
        .layer("txn").definedBy("org.partita.server.txn..")
        .layer("topology").definedBy("org.partita.server.topology..")
        .layer("cluster").definedBy("org.partita.server.cluster..")
        .layer("replication").definedBy("org.partita.server.replication..")
        .layer("catalog").definedBy("org.partita.server.catalog..")
        .layer("planner").definedBy("org.partita.server.planner..")
        .layer("procedure").definedBy("org.partita.server.procedure..")
        .layer("compiler").definedBy("org.partita.server.compiler..")
        .layer("engine").definedBy("org.partita.server.engine..")
        .layer("database").definedBy("org.partita.server.database..")
        .layer("dispatch").definedBy("org.partita.server.dispatch..")
        .layer("stats").definedBy("org.partita.server.stats..")
        .layer("network").definedBy("org.partita.server.network..")
        .layer("http").definedBy("org.partita.server.http..")
        .layer("sysproc").definedBy("org.partita.server.sysproc..")
        .layer("durability").definedBy("org.partita.server.durability..")
        .layer("host").definedBy("org.partita.server.host..")
        .layer("cli").definedBy("org.partita.server.cli..")
        .layer("security").definedBy("org.partita.server.security..")
        .whereLayer("cli").mayNotBeAccessedByAnyLayer()
        .whereLayer("cluster").mayOnlyBeAccessedByLayers("replication", "host")
        .whereLayer("replication").mayOnlyBeAccessedByLayers("host")
        .whereLayer("host").mayOnlyBeAccessedByLayers("cli")
        .whereLayer("sysproc").mayOnlyBeAccessedByLayers("host")
        .whereLayer("http").mayOnlyBeAccessedByLayers("host")
        .whereLayer("network").mayOnlyBeAccessedByLayers("host", "cli")
        .whereLayer("dispatch").mayOnlyBeAccessedByLayers("network", "http", "sysproc", "host")
        .whereLayer("stats").mayOnlyBeAccessedByLayers("network", "sysproc", "host")
        .whereLayer("database").mayOnlyBeAccessedByLayers("sysproc", "host", "cli")
        .whereLayer("durability").mayOnlyBeAccessedByLayers("host", "cli")
        .whereLayer("security").mayOnlyBeAccessedByLayers("compiler", "database", "dispatch", "network", "http",
            "sysproc", "host", "cli", "cluster")
        .whereLayer("engine").mayOnlyBeAccessedByLayers("database")
        .whereLayer("compiler").mayOnlyBeAccessedByLayers("database", "sysproc", "host", "cli")
        .whereLayer("procedure").mayOnlyBeAccessedByLayers("compiler", "database")
        .whereLayer("planner").mayOnlyBeAccessedByLayers("compiler", "database", "sysproc", "cli")
        .whereLayer("catalog").mayOnlyBeAccessedByLayers("planner", "compiler", "database", "sysproc", "host", "cli")
        .whereLayer("topology").mayOnlyBeAccessedByLayers("cluster", "replication", "database", "sysproc", "host")
        .whereLayer("txn").mayOnlyBeAccessedByLayers("database", "dispatch", "network", "http", "sysproc", "host",
            "durability", "replication")
        .whereLayer("error").mayOnlyBeAccessedByLayers("txn", "procedure", "engine", "database", "network", "http",
            "sysproc", "host", "replication");
    rule.check(SERVER);
  }
}
