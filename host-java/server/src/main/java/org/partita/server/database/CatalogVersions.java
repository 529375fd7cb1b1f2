package org.partita.server.database;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import org.partita.proto.txn.SchemaChange;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.ddl.DdlException;
import org.partita.server.compiler.SourceFile;

/**
 * The catalog versions a cluster host's copies use (docs/cluster.md,
 * "Schema changes across hosts"): the version the host started at, and
 * each version a schema change made since, compiled once on this host from
 * the version before it and the change's DDL, so that every copy here takes
 * the same snapshot for a version. A version compiled here must give the
 * engine catalog the coordinator compiled (the change carries it): hosts
 * that compiled the same DDL differently refuse the change rather than run
 * different schemas.
 *
 * <p>Thread-safe: the fragment server, replica copies and recovery ask from
 * their own threads.
 */
final class CatalogVersions {
  private final TreeMap<Long, CatalogSnapshot> byVersion = new TreeMap<>();
  /** The DDL that made each version from the one before it (versions 2 and up). */
  private final TreeMap<Long, String> changes = new TreeMap<>();

  /** Starts at {@code start}'s version, knowing the DDL of every version up to it. */
  CatalogVersions(CatalogHistory start) {
    byVersion.put(start.version(), new CatalogSnapshot(start.catalog(), start.version()));
    for (int i = 0; i < start.schemaChanges().size(); i++) {
      changes.put(i + 2L, start.schemaChanges().get(i));
    }
  }

  /** Catalog version {@code version}, compiled here before. */
  synchronized CatalogSnapshot at(long version) {
    final CatalogSnapshot snapshot = byVersion.get(version);
    if (snapshot == null) {
      throw new IllegalStateException("this host has no catalog version " + version + " (it knows versions "
          + byVersion.firstKey() + " to " + byVersion.lastKey() + ")");
    }
    return snapshot;
  }

  /**
   * The catalog {@code change} makes: compiled from the version before it the
   * first time it is asked for, the same snapshot after.
   *
   * @throws IllegalStateException when this host lacks the version before,
   *     the DDL no longer compiles here, or it compiles to another engine
   *     catalog than the one the change carries
   */
  synchronized CatalogSnapshot next(SchemaChange change) {
    final long version = change.getCatalogVersion();
    // A version compiled before from other DDL was a change that rolled back: this one replaces it.
    final boolean known = byVersion.containsKey(version) && change.getDdl().equals(changes.get(version));
    final CatalogSnapshot made = known ? byVersion.get(version) : compile(at(version - 1), change.getDdl());
    if (!Arrays.equals(made.catalog().engineCatalog().toByteArray(), change.getEngineCatalog().toByteArray())) {
      throw new IllegalStateException("the DDL of catalog version " + version + " compiles on this host to another"
          + " engine catalog than its coordinator's; the change is not taken here");
    }
    if (!known) {
      byVersion.put(version, made);
      changes.put(version, change.getDdl());
    }
    return made;
  }

  /** The DDL that made versions 2 .. {@code version}, oldest first. */
  synchronized List<String> history(long version) {
    final List<String> out = new ArrayList<>((int) Math.max(0, version - 1));
    for (long v = 2; v <= version; v++) {
      final String ddl = changes.get(v);
      if (ddl == null) {
        throw new IllegalStateException("this host does not know the DDL of catalog version " + v);
      }
      out.add(ddl);
    }
    return out;
  }

  private static CatalogSnapshot compile(CatalogSnapshot from, String ddl) {
    final CompiledCatalog current = from.catalog();
    try {
      return new CatalogSnapshot(new CatalogCompiler(current.classLoader()).apply(current,
          new SourceFile("@AdHoc", ddl)), from.version() + 1);
    } catch (DdlException e) {
      throw new IllegalStateException("the DDL of catalog version " + (from.version() + 1) + " does not compile"
          + " on this host: " + e.getMessage(), e);
    }
  }

  /**
   * The write hash a copy reports for a part that took catalog
   * {@code next} (never 0, so the part is logged and travels whole, and its
   * replicas compare it as they compare any part's): copies that took
   * different engine catalogs report different hashes.
   */
  static long writeHash(CatalogSnapshot next) {
    final byte[] bytes = next.catalog().engineCatalog().toByteArray();
    long h = 0xcbf29ce484222325L ^ next.version();
    for (byte b : bytes) {
      h = (h ^ (b & 0xff)) * 0x100000001b3L;
    }
    return h == 0 ? 1 : h;
  }
}
