package org.partita.fault;

import java.util.List;

/** The nemeses by name, and which of them can run on how many hosts. Stateless. */
final class Nemeses {
  /** Every nemesis of the issue, single-host ones first. */
  static final List<String> NAMES = List.of("kill", "kill-all", "pause", "power-loss", "partition",
      "partition-leader", "flood-minority", "rejoin");
  /** Those that cut hosts apart: a cluster of 3 hosts or more (a minority and a majority). */
  static final List<String> NETWORK = List.of("partition", "partition-leader", "flood-minority");
  /** Those that need every killed host to start again on its own files: refused on a cluster. */
  static final List<String> RESTARTING = List.of("kill-all", "power-loss");
  /** What runs on a cluster today. */
  static final String ON_A_CLUSTER = "kill (K=1), rejoin (K=1), pause, partition, partition-leader, flood-minority";

  private Nemeses() {
  }

  /**
   * Throws an IllegalArgumentException when nemesis {@code name} cannot run
   * on {@code hosts} hosts with {@code kfactor}.
   */
  static void check(String name, int hosts, int kfactor) {
    if (!NAMES.contains(name)) {
      throw new IllegalArgumentException("unknown nemesis '" + name + "' (known: " + String.join(", ", NAMES)
          + ", none)");
    }
    if (hosts > 1 && RESTARTING.contains(name)) {
      throw new IllegalArgumentException("nemesis '" + name + "' needs every killed host to start again on its "
          + "own files, which a cluster host does not (it returns by rejoin, from its partitions' leaders); on a "
          + "cluster today: " + ON_A_CLUSTER);
    }
    if (hosts > 1 && (name.equals("kill") || name.equals("rejoin")) && kfactor != 1) {
      throw new IllegalArgumentException("nemesis '" + name + "' on a cluster needs --kfactor 1, not " + kfactor
          + ": "
          + (kfactor == 0 ? "with K=0 a killed host's partitions have no other copy to fail over to"
          : "with K>=2 a failover leaves several copies, which need repair among the survivors before serving, "
          + "and that is not built yet (docs/cluster.md, \"Failover today\")"));
    }
    if (hosts == 1 && name.equals("rejoin")) {
      throw new IllegalArgumentException("nemesis 'rejoin' needs a cluster (--hosts 3 or more): a single host "
          + "restarts from its command log (nemesis kill)");
    }
    if (NETWORK.contains(name) && hosts < 3) {
      throw new IllegalArgumentException("nemesis '" + name + "' cuts hosts apart: it needs a cluster of 3 hosts "
          + "or more (--hosts 3), not " + hosts + "; on one host: kill, kill-all, pause, power-loss");
    }
  }

  /**
   * How many kills a run's schedule may play: on a cluster one, since a
   * killed host stays dead until rejoin exists and with K = 1 a second
   * loss would take the last copy of some partitions; on one host no limit
   * (the host starts again).
   */
  static int killLimit(int hosts) {
    return hosts > 1 ? 1 : Integer.MAX_VALUE;
  }

  /** {@link #killLimit(int)}, unlimited on a cluster whose run rejoins every killed host ({@code rejoin}). */
  static int killLimit(int hosts, List<String> nemeses) {
    return nemeses.contains("rejoin") ? Integer.MAX_VALUE : killLimit(hosts);
  }

  /** The nemesis named {@code name}, a new instance for each fault. REQUIRES: {@link #check} accepted it. */
  static Nemesis named(String name) {
    return switch (name) {
      case "kill" -> new KillNemesis(false);
      case "kill-all" -> new KillNemesis(true);
      case "pause" -> new PauseNemesis();
      case "power-loss" -> new PowerLossNemesis();
      case "partition" -> new PartitionNemesis(false);
      case "partition-leader" -> new PartitionNemesis(true);
      case "flood-minority" -> new FloodNemesis();
      case "rejoin" -> new RejoinNemesis();
      default -> throw new IllegalArgumentException("nemesis '" + name + "' is not available");
    };
  }

  /** Whether {@code nemeses} cut the network (the run needs nft). */
  static boolean cutsNetwork(List<String> nemeses) {
    return nemeses.stream().anyMatch(NETWORK::contains);
  }
}
