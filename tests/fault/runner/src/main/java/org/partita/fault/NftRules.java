package org.partita.fault;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The nftables script for a {@link Grudge} on a local cluster (host i on
 * its own loopback address, docs/cluster.md "Wire and ports"). Every rule
 * lives in one {@code inet} table named for the run, in one chain on the
 * output hook (loopback packets pass it once), so removing the table
 * removes every rule the run added. Stateless; pure text, unit-tested.
 *
 * <p>What is cut, and what cannot be:
 * <ul>
 *   <li>The internal port (heartbeats, the metadata watch, and replication
 *       when it exists): each host binds its listener and its outgoing
 *       connections to its own address, so each cut link drops exactly the
 *       packets between the two hosts' addresses to or from that port.</li>
 *   <li>The metadata port (Ratis): Ratis's outgoing connections all come
 *       from 127.0.0.1, whichever host opened them, so they cannot be told
 *       apart by address. When each host runs in a cgroup of its own
 *       ({@code scripts/cluster start --cgroup}), each cut link drops what
 *       either host's sockets (matched by {@code socket cgroupv2}) send to
 *       the other's metadata port: exact, both ways, for the voters' own
 *       connections and each host's metadata client alike. Without cgroups,
 *       a voter on the minority side is cut off by destination only: every
 *       packet to its metadata port and every answer from it is dropped,
 *       but its own outgoing connections to the majority's voters are not
 *       (a one-way cut), and a bridge cuts no metadata traffic.</li>
 *   <li>Client ports are never touched: clients reach every host.</li>
 * </ul>
 */
final class NftRules {
  /** Table names: letters, digits and underscores, as nft accepts them unquoted. */
  private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,62}");
  private static final Pattern CGROUP = Pattern.compile("[A-Za-z0-9_./-]+");

  /**
   * The cluster's addresses and ports the rules name.
   *
   * @param cgroups each host's cgroup as nft names it (relative to /sys/fs/cgroup), or empty when the
   *     hosts do not run in cgroups of their own
   * @param cgroupLevel the level of those cgroups in their hierarchy (its root is 0)
   */
  record Ports(List<String> hostAddresses, int internalPort, int metadataPort, int voters, List<String> cgroups,
      int cgroupLevel) {
    Ports {
      hostAddresses = List.copyOf(hostAddresses);
      cgroups = List.copyOf(cgroups);
      if (!cgroups.isEmpty() && cgroups.size() != hostAddresses.size()) {
        throw new IllegalArgumentException(cgroups.size() + " cgroups for " + hostAddresses.size() + " hosts");
      }
      for (String c : cgroups) {
        if (!CGROUP.matcher(c).matches()) {
          throw new IllegalArgumentException("cgroup path '" + c + "' must be letters, digits, '_', '-', '.' "
              + "and '/'");
        }
      }
    }

    /** Without cgroups. */
    Ports(List<String> hostAddresses, int internalPort, int metadataPort, int voters) {
      this(hostAddresses, internalPort, metadataPort, voters, List.of(), 0);
    }
  }

  private NftRules() {
  }

  /** Checks {@code table} is a name nft takes unquoted; returns it. */
  static String checkTable(String table) {
    if (!TABLE_NAME.matcher(table).matches()) {
      throw new IllegalArgumentException("nftables table name '" + table + "' must be a letter then letters, "
          + "digits or underscores (at most 63)");
    }
    return table;
  }

  /**
   * A script that replaces table {@code table} (whatever it held) with the
   * rules of {@code grudge}: applied with {@code nft -f}, atomically.
   */
  static String cut(String table, Grudge grudge, Ports ports) {
    checkTable(table);
    final List<String> rules = new ArrayList<>();
    final List<List<Integer>> links = new ArrayList<>(grudge.links());
    links.sort(Comparator.<List<Integer>>comparingInt(l -> l.get(0)).thenComparingInt(l -> l.get(1)));
    for (List<Integer> link : links) {
      final String a = address(ports, link.get(0));
      final String b = address(ports, link.get(1));
      for (String[] pair : new String[][] {{a, b}, {b, a}}) {
        for (String direction : new String[] {"dport", "sport"}) {
          rules.add("ip saddr " + pair[0] + " ip daddr " + pair[1] + " tcp " + direction + " "
              + ports.internalPort() + " drop");
        }
      }
    }
    if (!ports.cgroups().isEmpty()) {
      for (List<Integer> link : links) {
        for (int[] pair : new int[][] {{link.get(0), link.get(1)}, {link.get(1), link.get(0)}}) {
          if (pair[1] < ports.voters()) {
            rules.add("socket cgroupv2 level " + ports.cgroupLevel() + " \"" + ports.cgroups().get(pair[0])
                + "\" ip daddr " + address(ports, pair[1]) + " tcp dport " + ports.metadataPort() + " drop");
          }
        }
      }
    }
    for (int host : ports.cgroups().isEmpty() ? grudge.minority().stream().sorted().toList() : List.<Integer>of()) {
      if (host < ports.voters()) {
        final String v = address(ports, host);
        rules.add("ip daddr " + v + " tcp dport " + ports.metadataPort() + " drop");
        rules.add("ip saddr " + v + " tcp sport " + ports.metadataPort() + " drop");
      }
    }
    final StringBuilder out = new StringBuilder(replace(table));
    out.append("table inet ").append(table).append(" {\n");
    out.append("  chain output {\n");
    out.append("    type filter hook output priority 0; policy accept;\n");
    for (String rule : rules) {
      out.append("    ").append(rule).append('\n');
    }
    out.append("  }\n}\n");
    return out.toString();
  }

  /** A script that removes table {@code table} and succeeds whether it exists or not. */
  static String remove(String table) {
    checkTable(table);
    return "table inet " + table + " {}\ndelete table inet " + table + "\n";
  }

  private static String replace(String table) {
    return remove(table);
  }

  private static String address(Ports ports, int host) {
    if (host < 0 || host >= ports.hostAddresses().size()) {
      throw new IllegalArgumentException("host " + host + " has no address (hosts 0 to "
          + (ports.hostAddresses().size() - 1) + ")");
    }
    return ports.hostAddresses().get(host);
  }
}
