package org.partita.fault;

import java.util.List;

/** The nemeses by name, and which of them can run on how many hosts. Stateless. */
final class Nemeses {
  /** Every nemesis of the issue, single-host ones first. */
  static final List<String> NAMES = List.of("kill", "kill-all", "pause", "power-loss", "partition",
      "partition-leader", "flood-minority", "rejoin");
  /** Those that need several hosts (and scripts/cluster). */
  static final List<String> CLUSTER_ONLY = List.of("partition", "partition-leader", "flood-minority", "rejoin");

  private Nemeses() {
  }

  /** Throws an IllegalArgumentException when nemesis {@code name} cannot run on {@code hosts} hosts. */
  static void check(String name, int hosts) {
    if (!NAMES.contains(name)) {
      throw new IllegalArgumentException("unknown nemesis '" + name + "' (known: " + String.join(", ", NAMES)
          + ", none)");
    }
    if (CLUSTER_ONLY.contains(name)) {
      throw new IllegalArgumentException("nemesis '" + name + "' needs a cluster of several hosts with "
          + "scripts/cluster (issue \"Cluster\"), which the runner cannot start yet; single-host nemeses: "
          + "kill, kill-all, pause, power-loss");
    }
  }

  /** The nemesis named {@code name}. REQUIRES: {@link #check} accepted it. */
  static Nemesis named(String name) {
    return switch (name) {
      case "kill" -> new KillNemesis(false);
      case "kill-all" -> new KillNemesis(true);
      case "pause" -> new PauseNemesis();
      case "power-loss" -> new PowerLossNemesis();
      default -> throw new IllegalArgumentException("nemesis '" + name + "' is not available");
    };
  }
}
