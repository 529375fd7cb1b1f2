package org.partita.server.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.partita.server.cluster.ClusterConfig;
import org.partita.server.durability.DurableFile;

/**
 * Whose a cluster host's data directory is (docs/durability.md, "On a
 * cluster"): the file {@code DIR/cluster-host}, written at the first start
 * on the directory, names the cluster's configuration (its host list, K
 * and sites per host: {@link ClusterConfig#canonical}) and the host's id.
 * A later start on the directory by another host, or by a host of a
 * cluster of another configuration, is refused naming both, before
 * anything in it is read or written: a host's metadata, command log and
 * snapshots are its own, and replaying another host's copies would
 * corrupt the cluster. Stateless; used once at start.
 *
 * <p>Format, UTF-8 text, three lines: {@code partita-cluster-host 1}, then
 * {@code cluster CONFIGURATION}, then {@code host ID}.
 */
final class DataDirIdentity {
  static final String FILE = "cluster-host";
  private static final String MAGIC = "partita-cluster-host 1";

  private DataDirIdentity() {}

  /**
   * Checks that {@code dataDir} is this host's, writing its identity first
   * when it has none (durably: written, synced, renamed, directory
   * synced).
   *
   * Returns true iff the directory was already this host's (an earlier
   * start claimed it).
   *
   * @throws StartupException when it is another host's or another cluster's, or its file does not read
   */
  static boolean claim(Path dataDir, ClusterConfig config) throws StartupException {
    final Path file = dataDir.resolve(FILE);
    try {
      if (Files.exists(file)) {
        check(file, config);
        return true;
      }
      Files.createDirectories(dataDir);
      DurableFile.write(file, text(config.canonical(), config.hostId()).getBytes(StandardCharsets.UTF_8));
      return false;
    } catch (IOException e) {
      throw new StartupException("cannot read or write " + file + ": " + e.getMessage(), e);
    }
  }

  private static void check(Path file, ClusterConfig config) throws StartupException, IOException {
    final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    if (lines.size() != 3 || !lines.get(0).equals(MAGIC) || !lines.get(1).startsWith("cluster ")
        || !lines.get(2).matches("host [0-9]{1,9}")) {
      throw new StartupException(file + " is not a cluster host's identity (expected the lines \"" + MAGIC
          + "\", \"cluster CONFIGURATION\" and \"host ID\"): it was not written by Partita or was damaged;"
          + " give this host its own --data-dir", null);
    }
    final String cluster = lines.get(1).substring("cluster ".length());
    final int host = Integer.parseInt(lines.get(2).substring("host ".length()));
    if (!cluster.equals(config.canonical())) {
      throw new StartupException(file.getParent() + " belongs to host " + host + " of another cluster (" + cluster
          + "), not to this one (" + config.canonical() + "): each host keeps its own data directory; give this"
          + " host its own (or an empty) --data-dir", null);
    }
    if (host != config.hostId()) {
      throw new StartupException(file.getParent() + " belongs to host " + host + " of this cluster, not to host "
          + config.hostId() + ": each host keeps its own data directory (its metadata, command log and"
          + " snapshots); start host " + config.hostId() + " on its own --data-dir", null);
    }
  }

  static String text(String cluster, int host) {
    return MAGIC + "\ncluster " + cluster + "\nhost " + host + "\n";
  }
}
