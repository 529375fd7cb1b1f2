package org.partita.server.cluster;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * One voter of the metadata group: its id (the host id as text) and the
 * address and port its Ratis server binds and its peers reach. Immutable.
 */
public record MetadataPeer(String id, InetSocketAddress address) {
  public MetadataPeer {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(address, "address");
    if (id.isEmpty()) {
      throw new IllegalArgumentException("a metadata peer needs an id");
    }
    if (address.isUnresolved()) {
      throw new IllegalArgumentException("metadata peer " + id + ": address " + address + " does not resolve");
    }
  }

  /** {@code host:port} as Ratis expects it. */
  String hostPort() {
    return address.getAddress().getHostAddress() + ":" + address.getPort();
  }
}
