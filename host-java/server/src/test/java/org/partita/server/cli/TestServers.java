package org.partita.server.cli;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import org.partita.server.host.PartitaServer;
import org.partita.server.host.ServerOptions;

/** In-process servers for the command-line tests: loopback, any free port, the test schema. */
public final class TestServers {
  private TestServers() {}

  /** The DDL of src/test/resources/cli/shell-schema.sql. */
  public static Path schema() {
    try {
      return Path.of(TestServers.class.getResource("/cli/shell-schema.sql").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Closes {@code client} and shuts {@code server} down; either may be null (a start that failed). */
  public static void stop(org.partita.client.PartitaClient client, PartitaServer server) throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.shutdown();
    }
  }

  public static PartitaServer start() throws Exception {
    return PartitaServer.start(ServerOptions.ephemeral(List.of(schema()), 2));
  }
}
