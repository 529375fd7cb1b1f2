package org.partita.server.cluster;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A host's cluster options, parsed and checked (docs/cluster.md, "Wire and
 * ports"; docs/command-line.md, {@code partita start --cluster}): every
 * host's internal address from {@code --cluster} (host ids are positions in
 * that list, from 0), this host's id, K and the sites per host. A host's
 * metadata port (Ratis, voters only) is its internal port + 1. The voters
 * are the lowest host ids: 3 for K &lt;= 1, 2K+1 above, never more than the
 * hosts, and an odd number. Every bad value is refused with an
 * IllegalArgumentException naming the option and the value. Immutable.
 *
 * @param hosts every host's internal address, by host id
 * @param hostId this host's id
 * @param kFactor copies per partition minus one
 * @param sitesPerHost partitions (site threads) each host holds
 */
public record ClusterConfig(List<InetSocketAddress> hosts, int hostId, int kFactor, int sitesPerHost) {
  /** The most hosts a cluster may list (host ids must stay small for clients' routing tables). */
  public static final int MAX_HOSTS = 1024;

  public ClusterConfig {
    hosts = List.copyOf(hosts);
  }

  /**
   * Parses {@code --cluster} ({@code host:port,host:port,...}) and checks it
   * with the other options. {@code bind} is this host's {@code --bind}, or
   * null when it was not given (then the host binds its own address from the
   * list); when given it must be that address.
   */
  public static ClusterConfig parse(String cluster, int hostId, int kFactor, int sitesPerHost, String bind) {
    final List<InetSocketAddress> hosts = parseHosts(cluster);
    if (hostId < 0 || hostId >= hosts.size()) {
      throw new IllegalArgumentException("--host-id " + hostId + " is not a position in --cluster, which lists "
          + hosts.size() + " host(s): use 0 to " + (hosts.size() - 1));
    }
    if (kFactor < 0) {
      throw new IllegalArgumentException("--kfactor must be 0 or more, got " + kFactor);
    }
    if (sitesPerHost < 1) {
      throw new IllegalArgumentException("--sites-per-host must be at least 1, got " + sitesPerHost);
    }
    if (kFactor + 1 > hosts.size()) {
      throw new IllegalArgumentException("--kfactor " + kFactor + " needs " + (kFactor + 1)
          + " hosts for the copies of each partition, but --cluster lists " + hosts.size());
    }
    try {
      Placement.of(hosts.size(), sitesPerHost, kFactor);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--cluster, --sites-per-host and --kfactor: " + e.getMessage(), e);
    }
    final ClusterConfig config = new ClusterConfig(hosts, hostId, kFactor, sitesPerHost);
    if (bind != null) {
      config.checkBind(bind);
    }
    return config;
  }

  private static List<InetSocketAddress> parseHosts(String cluster) {
    if (cluster == null || cluster.isBlank()) {
      throw new IllegalArgumentException("--cluster needs host:port for every host, separated by commas");
    }
    final String[] entries = cluster.split(",", -1);
    if (entries.length > MAX_HOSTS) {
      throw new IllegalArgumentException("--cluster lists " + entries.length + " hosts; at most " + MAX_HOSTS);
    }
    final List<InetSocketAddress> hosts = new ArrayList<>(entries.length);
    final Set<InetSocketAddress> seen = new HashSet<>();
    for (int i = 0; i < entries.length; i++) {
      final InetSocketAddress address = parseEntry(entries[i].trim(), i);
      if (!seen.add(address)) {
        throw new IllegalArgumentException("--cluster entry " + i + " (" + entries[i].trim()
            + ") names the same address and port as an earlier entry: every host needs its own");
      }
      hosts.add(address);
    }
    return hosts;
  }

  private static InetSocketAddress parseEntry(String entry, int index) {
    final int colon = entry.lastIndexOf(':');
    if (entry.isEmpty() || colon <= 0 || colon == entry.length() - 1) {
      throw new IllegalArgumentException("--cluster entry " + index + " '" + entry
          + "' is not host:port (the host's internal port, e.g. 127.0.0.1:21215)");
    }
    final String host = entry.substring(0, colon);
    final int port;
    try {
      port = Integer.parseInt(entry.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--cluster entry " + index + " '" + entry + "': the port '"
          + entry.substring(colon + 1) + "' is not a number", e);
    }
    if (port < 1 || port > 65534) {
      throw new IllegalArgumentException("--cluster entry " + index + " '" + entry + "': the port must be in "
          + "[1, 65534] (the metadata port is the next one), got " + port);
    }
    try {
      return new InetSocketAddress(InetAddress.getByName(host), port);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("--cluster entry " + index + " '" + entry + "': unknown host " + host, e);
    }
  }

  private void checkBind(String bind) {
    final InetAddress bound;
    try {
      bound = InetAddress.getByName(bind);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("--bind " + bind + ": unknown host", e);
    }
    if (!bound.equals(self().getAddress())) {
      throw new IllegalArgumentException("--bind " + bind + " is not host " + hostId + "'s address in --cluster ("
          + self().getAddress().getHostAddress() + "): a cluster host binds every port on its own address");
    }
  }

  /** The number of hosts. */
  public int hostCount() {
    return hosts.size();
  }

  /** This host's internal address. */
  public InetSocketAddress self() {
    return hosts.get(hostId);
  }

  /** The address this host binds every port on. */
  public String bindAddress() {
    return self().getAddress().getHostAddress();
  }

  /** Host {@code id}'s metadata (Ratis) address: its internal port + 1. */
  public InetSocketAddress metadataAddress(int id) {
    final InetSocketAddress internal = hosts.get(id);
    return new InetSocketAddress(internal.getAddress(), internal.getPort() + 1);
  }

  /** The number of metadata voters: the lowest host ids, 0 to voterCount() - 1. */
  public int voterCount() {
    final int wanted = Math.max(3, 2 * kFactor + 1);
    final int possible = Math.min(wanted, hosts.size());
    return possible % 2 == 1 ? possible : possible - 1;
  }

  /**
   * Why this cluster cannot survive the loss of any K hosts, or null when it
   * can (docs/cluster.md, "Guarantees"): the data has K+1 copies, but the
   * metadata group, a majority of its voters, must survive too, which needs
   * at least 2K+1 hosts.
   */
  public String survivalWarning() {
    if (kFactor == 0 || hosts.size() >= 2 * kFactor + 1) {
      return null;
    }
    final int voters = voterCount();
    return "--kfactor " + kFactor + " on " + hosts.size() + " hosts: each partition has " + (kFactor + 1)
        + " copies, but the metadata group (" + voters + " voter(s): host(s) 0 to " + (voters - 1) + ") needs a"
        + " majority of its voters, so losing more than " + (voters - 1) / 2 + " of those stops the cluster: it"
        + " does not survive the loss of any " + kFactor + " host(s); that needs at least " + (2 * kFactor + 1)
        + " hosts";
  }

  /** True when this host is a metadata voter. */
  public boolean isVoter() {
    return hostId < voterCount();
  }

  /** The number of partitions the cluster holds. */
  public int partitionCount() {
    return hosts.size() * sitesPerHost / (kFactor + 1);
  }

  /**
   * The configuration every host must share, as one string (compared at
   * registration): the host list, K and sites per host.
   */
  public String canonical() {
    final StringBuilder text = new StringBuilder("hosts=");
    for (int i = 0; i < hosts.size(); i++) {
      text.append(i == 0 ? "" : ",").append(hosts.get(i).getAddress().getHostAddress()).append(':')
          .append(hosts.get(i).getPort());
    }
    return text.append(" kfactor=").append(kFactor).append(" sites-per-host=").append(sitesPerHost).toString();
  }
}
