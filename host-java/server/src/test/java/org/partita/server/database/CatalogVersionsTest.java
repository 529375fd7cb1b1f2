package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.proto.txn.SchemaChange;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.SourceFile;

/** A cluster host's catalog versions: compiled once, checked against the coordinator's, replaced after a roll back. */
class CatalogVersionsTest {
  private static final String START = "CREATE TABLE kv (k BIGINT NOT NULL PRIMARY KEY, v BIGINT);\n"
      + "PARTITION TABLE kv ON COLUMN k;\n";

  private static CompiledCatalog compile(String ddl) {
    try {
      return new CatalogCompiler(CatalogVersionsTest.class.getClassLoader()).compile(List.of(new SourceFile("s.sql",
          ddl)));
    } catch (org.partita.server.compiler.ddl.DdlException e) {
      throw new AssertionError(e);
    }
  }

  /** The change the coordinator sends for {@code ddl} at version 2 (its engine catalog compiled here). */
  private static SchemaChange change(String ddl) {
    final CompiledCatalog next = compile(START + ddl + ";\n");
    return SchemaChange.newBuilder().setDdl(ddl).setCatalogVersion(2)
        .setEngineCatalog(ByteString.copyFrom(next.engineCatalog().toByteArray())).build();
  }

  @Test
  void compilesEachVersionOnceAndRefusesAnotherEngineCatalog() {
    final CatalogVersions versions = new CatalogVersions(CatalogHistory.initial(compile(START)));
    final SchemaChange notes = change("CREATE TABLE notes (id BIGINT NOT NULL PRIMARY KEY)");
    final CatalogSnapshot two = versions.next(notes);
    assertSame(two, versions.next(notes), "every copy of a host takes the same snapshot for a version");
    assertSame(two, versions.at(2));
    final SchemaChange forged = notes.toBuilder().setEngineCatalog(ByteString.copyFromUtf8("other")).build();
    assertThrows(IllegalStateException.class, () -> versions.next(forged));
    assertTrue(CatalogVersions.writeHash(two) != 0);
  }

  @Test
  void replacesAVersionWhoseChangeRolledBackByTheNextChangeOfThatVersion() {
    final CatalogVersions versions = new CatalogVersions(CatalogHistory.initial(compile(START)));
    versions.next(change("CREATE TABLE notes (id BIGINT NOT NULL PRIMARY KEY)"));
    // That change rolled back; the next DDL makes version 2 again.
    final CatalogSnapshot two = versions.next(change("CREATE TABLE tags (id BIGINT NOT NULL PRIMARY KEY)"));
    assertTrue(two.catalog().schema().tables().stream().anyMatch(t -> t.name().equalsIgnoreCase("tags")));
    assertTrue(versions.history(2).get(0).contains("tags"));
  }
}
