package org.partita.server.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.partita.proto.Catalog;
import org.partita.proto.ErrorCode;
import org.partita.proto.Table;
import org.partita.server.database.Database;
import org.partita.server.durability.SnapshotCorruptException;
import org.partita.server.durability.SnapshotManifest;
import org.partita.server.durability.SnapshotStore;
import org.partita.server.error.ServerException;

/**
 * The checks a snapshot passes before {@code @SnapshotRestore} touches
 * anything (docs/durability.md, "Restoring a snapshot"): it is a complete
 * snapshot directory, intact (manifest checksum, every file's size and
 * CRC32C), of this server's partition count, and taken with exactly this
 * server's tables and views (names, columns, indexes, partitioning);
 * procedures may differ. Each failure is a BAD_REQUEST naming the path and
 * the fault. Stateless.
 */
final class RestoreSource {
  private RestoreSource() {}

  /**
   * The manifest of the snapshot at {@code path}, checked against
   * {@code database}.
   *
   * @throws ServerException BAD_REQUEST saying what is wrong
   */
  static SnapshotManifest check(String path, Database database) throws ServerException {
    final Path snapshot;
    try {
      snapshot = Path.of(path);
    } catch (InvalidPathException e) {
      throw refused("'" + path + "' is not a path: " + e.getMessage());
    }
    if (!Files.isDirectory(snapshot)) {
      throw refused("there is no snapshot directory at " + snapshot);
    }
    if (!SnapshotStore.complete(snapshot)) {
      throw refused(snapshot + " is not a complete snapshot: it has no " + SnapshotManifest.NAME);
    }
    final SnapshotManifest manifest;
    final Catalog taken;
    try {
      manifest = SnapshotManifest.read(snapshot);
      SnapshotStore.verify(snapshot, manifest);
      taken = Catalog.parseFrom(Files.readAllBytes(snapshot.resolve(SnapshotManifest.CATALOG_FILE)));
    } catch (IOException | SnapshotCorruptException e) {
      throw refused("snapshot " + snapshot + " is damaged: " + e.getMessage());
    }
    if (!manifest.holdsEveryPartition()) {
      throw refused("snapshot " + snapshot + " holds the copies of partitions " + manifest.copies()
          + " only (a cluster host's part of a snapshot across hosts)");
    }
    if (manifest.cuts().size() != database.partitionCount()) {
      throw refused("snapshot " + snapshot + " holds " + manifest.cuts().size() + " partition(s) and this server "
          + database.partitionCount() + ": restore it into a server started with --sites " + manifest.cuts().size());
    }
    final String difference = difference(tables(taken), tables(database.catalog().engineCatalog()));
    if (difference != null) {
      throw refused("snapshot " + snapshot + " was taken with other tables than this server's: " + difference);
    }
    return manifest;
  }

  /** The first difference between the snapshot's tables and the server's, or null when they are the same. */
  private static String difference(Map<String, Table> snapshot, Map<String, Table> server) {
    for (Map.Entry<String, Table> t : snapshot.entrySet()) {
      final Table here = server.get(t.getKey());
      if (here == null) {
        return "it has " + t.getKey() + ", which this server does not";
      }
      if (!here.equals(t.getValue())) {
        return t.getKey() + " is defined differently (columns, indexes, partitioning or view)";
      }
    }
    for (String name : server.keySet()) {
      if (!snapshot.containsKey(name)) {
        return "this server has " + name + ", which the snapshot does not";
      }
    }
    return null;
  }

  private static Map<String, Table> tables(Catalog catalog) {
    final Map<String, Table> out = new LinkedHashMap<>();
    for (Table t : catalog.getTablesList()) {
      out.put(t.getName(), t);
    }
    return out;
  }

  private static ServerException refused(String why) {
    return new ServerException(ErrorCode.ERROR_CODE_BAD_REQUEST, "@SnapshotRestore: " + why
        + "; nothing was restored");
  }
}
