package org.partita.fault;

import java.util.List;

/** The nemeses by name, and which of them can run on how many hosts. Stateless. */
final class Nemeses {
  /** Every nemesis of the issue, single-host ones first. */
  static final List<String> NAMES = List.of("kill", "kill-all", "pause", "power-loss", "partition",
      "partition-leader", "flood-minority", "rejoin", "isolate");
  /** Those that cut hosts apart: a cluster of 3 hosts or more (a minority and a majority). */
  static final List<String> NETWORK = List.of("partition", "partition-leader", "flood-minority", "isolate");
  /**
   * Those that restart hosts on their own files: on a cluster every host at
   * once (a whole-cluster restart from the hosts' command logs), which needs
   * the logs.
   */
  static final List<String> RESTARTING = List.of("kill-all", "power-loss");
  /** What runs on a cluster today. */
  static final String ON_A_CLUSTER = "kill (K>=1), rejoin (K>=1), isolate (K=1), pause, partition, partition-leader,"
      + " flood-minority, kill-all and power-loss (with --command-log sync or async)";

  private Nemeses() {
  }

  /**
   * Throws an IllegalArgumentException when nemesis {@code name} cannot run
   * on {@code hosts} hosts with {@code kfactor}.
   */
  static void check(String name, int hosts, int kfactor) {
    check(name, hosts, kfactor, "sync");
  }

  /** As {@link #check(String, int, int)}, for hosts running with {@code --command-log commandLog}. */
  static void check(String name, int hosts, int kfactor, String commandLog) {
    if (!NAMES.contains(name)) {
      throw new IllegalArgumentException("unknown nemesis '" + name + "' (known: " + String.join(", ", NAMES)
          + ", none)");
    }
    if (hosts > 1 && RESTARTING.contains(name) && commandLog.equals("off")) {
      throw new IllegalArgumentException("nemesis '" + name + "' on a cluster kills every host and restarts the "
          + "cluster from its hosts' command logs: it needs --command-log sync or async, not off");
    }
    if (hosts > 1 && (name.equals("kill") || name.equals("rejoin")) && kfactor == 0) {
      throw new IllegalArgumentException("nemesis '" + name + "' on a cluster needs --kfactor 1 or more, not 0: "
          + "with K=0 a killed host's partitions have no other copy to fail over to");
    }
    if (hosts > 1 && name.equals("isolate") && kfactor != 1) {
      throw new IllegalArgumentException("nemesis 'isolate' on a cluster needs --kfactor 1, not " + kfactor
          + ": a host declared dead rejoins by itself only with K=1 (docs/cluster.md, \"Network partitions\")");
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
   * Throws an IllegalArgumentException when {@code nemeses} cannot run
   * together: isolate next to kill without rejoin (a killed host stays
   * dead, and with K = 1 cutting another host off then would leave
   * partitions without a copy).
   */
  static void checkTogether(List<String> nemeses) {
    if (nemeses.contains("isolate") && nemeses.contains("kill") && !nemeses.contains("rejoin")) {
      throw new IllegalArgumentException("nemeses 'isolate' and 'kill' need 'rejoin' too: without it a killed host "
          + "stays dead, and with K=1 isolating another host past the heartbeat timeout would leave the partitions "
          + "they shared without a copy");
    }
  }

  /**
   * How many kills a run's schedule may play: on a cluster one (it kills up
   * to K hosts at once), since a killed host stays dead unless the run
   * rejoins it and a later kill could take the last copy of some
   * partitions; on one host no limit (the host starts again).
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
      case "isolate" -> new IsolateNemesis();
      default -> throw new IllegalArgumentException("nemesis '" + name + "' is not available");
    };
  }

  /** Whether {@code nemeses} cut the network (the run needs nft). */
  static boolean cutsNetwork(List<String> nemeses) {
    return nemeses.stream().anyMatch(NETWORK::contains);
  }
}
