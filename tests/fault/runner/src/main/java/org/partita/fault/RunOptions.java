package org.partita.fault;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's options, parsed from {@code tests/fault/run}'s command line
 * (docs/testing.md). Immutable.
 *
 * @param commandLog the hosts' --command-log: sync (the promise under test); async or off only to see
 *     the harness catch the losses they allow
 * @param root the repository (schemas, scripts/partita, the built tools)
 */
record RunOptions(String workload, List<String> nemeses, int seconds, long seed, int hosts, int kfactor, int sites,
    int processes, String commandLog, Path root, Path results, Path checker) {

  static final String USAGE = String.join("\n",
      "usage: tests/fault/run --workload W [--nemesis N1,N2] [--time S] [--seed X] [--hosts H] [--kfactor K]",
      "                       [--sites N] [--processes P] [--results DIR]",
      "  --workload    " + String.join(", ", Workloads.NAMES),
      "  --nemesis     comma-separated: " + String.join(", ", Nemeses.NAMES) + ", or none (default none)",
      "  --time        seconds of workload (default 30)",
      "  --seed        the schedule's and the workers' seed (default 1)",
      "  --hosts       1 (default), or 3 or more: a local cluster through scripts/cluster",
      "  --kfactor     copies per partition minus one (default 0; the kill nemesis on a cluster needs 1 or more)",
      "  --sites       partitions per host (default 2, or the next count that makes hosts x sites a multiple",
      "                of K+1: 3 on 5 hosts with K=2); --processes client workers (default 5)",
      "  --results     where the run directory goes (default tests/fault/results)",
      "  --command-log sync (default); async or off make the hosts lose acknowledged writes on purpose,",
      "                to show the checks catch it");

  /**
   * The sites per host of a cluster: {@code given} when hosts x sites is a
   * multiple of K+1 (each partition's copies on K+1 hosts), else refused;
   * unset (0), the smallest count from 2 up that is.
   */
  static int clusterSites(int given, int hosts, int kfactor) {
    if (given == 0) {
      int sites = 2;
      while (hosts * sites % (kfactor + 1) != 0) {
        sites++;
      }
      return sites;
    }
    if (hosts * given % (kfactor + 1) != 0) {
      throw new IllegalArgumentException("--sites " + given + " on " + hosts + " hosts makes " + hosts * given
          + " copies, not a multiple of K+1 = " + (kfactor + 1) + " (each partition has K+1 copies)");
    }
    return given;
  }

  /** Parses {@code args}; a bad or missing option is an IllegalArgumentException naming it. */
  static RunOptions parse(String[] args, Path root) {
    String workload = null;
    List<String> nemeses = List.of();
    int seconds = 30;
    long seed = 1;
    int hosts = 1;
    int kfactor = 0;
    int sites = 0;
    int processes = 5;
    String commandLog = "sync";
    Path results = root.resolve("tests/fault/results");
    Path checker = root.resolve("build/tests/fault/checker/checker");
    for (int i = 0; i < args.length; i++) {
      final String option = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(option.startsWith("--") ? option + " needs a value"
            : "unexpected argument '" + option + "'");
      }
      final String value = args[++i];
      switch (option) {
        case "--workload" -> workload = value;
        case "--nemesis" -> nemeses = nemesisList(value);
        case "--time" -> seconds = positive(option, value, 3600);
        case "--seed" -> seed = number(option, value);
        case "--hosts" -> hosts = positive(option, value, 16);
        case "--kfactor" -> kfactor = (int) range(option, value, 0, 15);
        case "--sites" -> sites = positive(option, value, 64);
        case "--processes" -> processes = positive(option, value, 200);
        case "--results" -> results = Path.of(value).toAbsolutePath();
        case "--checker" -> checker = Path.of(value).toAbsolutePath();
        case "--command-log" -> commandLog = oneOf(option, value, List.of("sync", "async", "off"));
        default -> throw new IllegalArgumentException("unknown option '" + option + "'");
      }
    }
    if (workload == null) {
      throw new IllegalArgumentException("--workload is required");
    }
    Workloads.named(workload, hosts);
    if (kfactor >= hosts) {
      throw new IllegalArgumentException("--kfactor " + kfactor + " needs more than " + kfactor + " hosts, not "
          + hosts);
    }
    for (String n : nemeses) {
      Nemeses.check(n, hosts, kfactor, commandLog);
    }
    sites = hosts > 1 ? clusterSites(sites, hosts, kfactor) : sites == 0 ? 2 : sites;
    Nemeses.checkTogether(nemeses);
    return new RunOptions(workload, nemeses, seconds, seed, hosts, kfactor, sites, processes, commandLog, root,
        results, checker);
  }

  boolean powerLoss() {
    return nemeses.contains("power-loss");
  }

  Path schema() {
    return root.resolve("tests/fault/workloads").resolve(Workloads.named(workload, hosts).schemaFile());
  }

  Path classes() {
    return root.resolve("tests/fault/runner/target/classes");
  }

  Path powercutShim() {
    return root.resolve("build/tests/fault/powercut/libpartita_powercut.so");
  }

  Path powercutTool() {
    return root.resolve("build/tests/fault/powercut/partita_powercut");
  }

  private static List<String> nemesisList(String value) {
    final List<String> out = new ArrayList<>();
    for (String n : value.split(",")) {
      final String name = n.trim();
      if (name.isEmpty()) {
        throw new IllegalArgumentException("--nemesis '" + value + "' names an empty nemesis");
      }
      if (!name.equals("none")) {
        out.add(name);
      }
    }
    return List.copyOf(out);
  }

  private static String oneOf(String option, String value, List<String> allowed) {
    if (!allowed.contains(value)) {
      throw new IllegalArgumentException(option + " '" + value + "' is not one of " + String.join(", ", allowed));
    }
    return value;
  }

  private static long number(String option, String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " '" + value + "' is not an integer");
    }
  }

  private static long range(String option, String value, long min, long max) {
    final long n = number(option, value);
    if (n < min || n > max) {
      throw new IllegalArgumentException(option + " " + n + " is outside " + min + "–" + max);
    }
    return n;
  }

  private static int positive(String option, String value, int max) {
    return (int) range(option, value, 1, max);
  }
}
