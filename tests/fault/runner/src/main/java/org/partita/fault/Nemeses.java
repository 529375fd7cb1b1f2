package org.partita.fault;

import java.util.List;

/** The nemeses by name, and which of them can run on how many hosts. Stateless. */
final class Nemeses {
  /** Every nemesis of the issue, single-host ones first. */
  static final List<String> NAMES = List.of("kill", "kill-all", "pause", "power-loss", "partition",
      "partition-leader", "flood-minority", "rejoin");
  /** Those that cut hosts apart: a cluster of 3 hosts or more (a minority and a majority). */
  static final List<String> NETWORK = List.of("partition", "partition-leader", "flood-minority");
  /** Those whose healing starts a killed host again: on a cluster that is rejoin, not built yet. */
  static final List<String> RESTARTING = List.of("kill", "kill-all", "power-loss", "rejoin");
  /** What runs on a cluster today. */
  static final String ON_A_CLUSTER = "pause, partition, partition-leader, flood-minority";

  private Nemeses() {
  }

  /** Throws an IllegalArgumentException when nemesis {@code name} cannot run on {@code hosts} hosts. */
  static void check(String name, int hosts) {
    if (!NAMES.contains(name)) {
      throw new IllegalArgumentException("unknown nemesis '" + name + "' (known: " + String.join(", ", NAMES)
          + ", none)");
    }
    if (hosts > 1 && RESTARTING.contains(name)) {
      throw new IllegalArgumentException("nemesis '" + name + "' needs a killed host to start again, and "
          + ClusterHosts.REJOIN_MISSING + "; on a cluster today: " + ON_A_CLUSTER);
    }
    if (hosts == 1 && name.equals("rejoin")) {
      throw new IllegalArgumentException("nemesis 'rejoin' needs a cluster (--hosts 3 or more) and rejoin, "
          + "which is not built yet (docs/cluster.md, milestone 5)");
    }
    if (NETWORK.contains(name) && hosts < 3) {
      throw new IllegalArgumentException("nemesis '" + name + "' cuts hosts apart: it needs a cluster of 3 hosts "
          + "or more (--hosts 3), not " + hosts + "; on one host: kill, kill-all, pause, power-loss");
    }
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
      default -> throw new IllegalArgumentException("nemesis '" + name + "' is not available");
    };
  }

  /** Whether {@code nemeses} cut the network (the run needs nft). */
  static boolean cutsNetwork(List<String> nemeses) {
    return nemeses.stream().anyMatch(NETWORK::contains);
  }
}
