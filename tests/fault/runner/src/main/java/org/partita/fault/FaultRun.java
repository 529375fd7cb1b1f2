package org.partita.fault;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.logging.FileHandler;
import java.util.logging.Handler;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.partita.client.PartitaClient;

/**
 * The fault runner's entry point ({@code tests/fault/run}, docs/testing.md):
 * starts the hosts, loads the workload, runs the workers and the seeded
 * nemesis schedule for {@code --time} seconds, heals, reads the final state
 * through every host, on one host stops and restarts it to read the state
 * its command log recovers (a cluster host cannot restart before rejoin
 * exists), runs the checker, audits acknowledged writes, and
 * writes {@code RESULTS/RUN/} (history.jsonl, server logs, checker.txt,
 * report.json, schedule.txt, summary.txt). Exit code: 0 iff every check
 * passed, 1 when one failed or the run could not finish, 2 for bad usage.
 */
public final class FaultRun {
  /** How long a call of the workload's setup may take (the workers' calls: {@link Worker#CALL_TIMEOUT}). */
  static final java.time.Duration SETUP_CALL_TIMEOUT = java.time.Duration.ofSeconds(30);

  private final RunOptions options;
  private final Path runDir;
  private final Workload workload;
  private final Summary summary = new Summary();

  private FaultRun(RunOptions options, Path runDir) {
    this.options = options;
    this.runDir = runDir;
    this.workload = Workloads.named(options.workload(), options.hosts());
  }

  public static void main(String[] args) throws Exception {
    System.exit(run(args));
  }

  static int run(String[] args) throws IOException, InterruptedException {
    if (List.of(args).contains("--help")) {
      System.out.println(RunOptions.USAGE);
      return 0;
    }
    final RunOptions options;
    try {
      options = RunOptions.parse(args, Path.of(System.getProperty("partita.root", ".")).toAbsolutePath()
          .normalize());
    } catch (IllegalArgumentException e) {
      System.err.println("fault run: " + e.getMessage());
      System.err.println(RunOptions.USAGE);
      return 2;
    }
    final String name = options.workload() + "-" + (options.nemeses().isEmpty() ? "none"
        : String.join("+", options.nemeses())) + "-seed" + options.seed() + "-"
        + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    if (Nemeses.cutsNetwork(options.nemeses()) && !Firewall.available()) {
      System.err.println("fault run: nemeses " + Nemeses.NETWORK + " cut the network with nftables, and the nft "
          + "command is missing: scripts/install-deps installs the nftables package");
      return 2;
    }
    final Path runDir = options.results().resolve(name);
    Files.createDirectories(runDir);
    logTo(runDir.resolve("client.log"));
    System.out.println("fault run: " + runDir);
    return new FaultRun(options, runDir).execute(name);
  }

  private int execute(String name) throws IOException, InterruptedException {
    summary.add("run: " + name);
    summary.add(String.format("workload %s, nemeses %s, time %d s, seed %d, hosts %d, kfactor %d, sites %d, "
        + "processes %d, command log %s", options.workload(), options.nemeses().isEmpty() ? "none"
        : String.join(",", options.nemeses()), options.seconds(), options.seed(), options.hosts(), options.kfactor(),
        options.sites(), options.processes(), options.commandLog()));
    if (options.hosts() > 1) {
      summary.add("cluster: heartbeat timeout " + ClusterHosts.heartbeatTimeout() + "; " + (options.nemeses()
          .contains("rejoin") ? "every killed host rejoins, kills unlimited" : "at most "
          + Nemeses.killLimit(options.hosts()) + " kill (a killed host stays dead: the run has no rejoin nemesis)")
          + (options.nemeses().stream().anyMatch(Nemeses.RESTARTING::contains) ? "; kill-all and power-loss"
          + " restart the whole cluster from its hosts' command logs (--recover)" : "")
          + (workload.multiPartitionReason() == null ? "" : "; a kill may hit the host leading partition 0, which "
          + "coordinates the workload's multi-partition transactions (" + workload.multiPartitionReason() + ")"));
    }
    final Schedule schedule = Schedule.plan(options.seed(), options.nemeses(), options.seconds(),
        Nemeses.killLimit(options.hosts(), options.nemeses()));
    writeSchedule(schedule);
    final Path historyFile = runDir.resolve("history.jsonl");
    final LiveResults results;
    try (Hosts hosts = Hosts.open(options, runDir); History history = new History(historyFile)) {
      results = drive(hosts, history, schedule);
    } catch (RuntimeException e) {
      summary.abort(runDir.resolve("summary.txt"), e.getMessage());
      return 1;
    }
    final CheckerProcess checker = CheckerProcess.run(options.checker(), workload, historyFile, runDir);
    summary.add("checker (exit code " + checker.exitCode() + "):");
    for (String line : checker.lines()) {
      summary.add("  " + line);
    }
    summary.add(results.audit().line());
    summary.add(results.copies());
    final String verdict = checker.linearizable();
    if (verdict == null) {
      summary.add("linearizability: not searched for " + workload.name()
          + "; the line below is the checker's verdict on the workload's own checks");
    }
    final boolean linearizable = verdict == null ? checker.passed() : verdict.equals("yes");
    final ReplicaVerdict replicas = results.replicas();
    final boolean passed = checker.passed() && linearizable && replicas.passed() && results.audit().passed()
        && results.nemesisError() == null;
    if (results.nemesisError() != null) {
      summary.add("nemesis error: " + results.nemesisError());
    }
    summary.add("verdict: " + (passed ? "PASS" : "FAIL"));
    summary.finish(runDir.resolve("summary.txt"), results.audit().lost().size(), linearizable, replicas.text());
    if (passed) {
      deleteData();
    }
    return passed ? 0 : 1;
  }

  /**
   * What the live part of a run produced for the report: the audit, the
   * line saying which copies were compared, the replicas' verdict.
   */
  private record LiveResults(Audit audit, String copies, ReplicaVerdict replicas, String nemesisError) {
  }

  private LiveResults drive(Hosts hosts, History history, Schedule schedule) throws IOException,
      InterruptedException {
    hosts.startAll();
    // The initial state, before any fault: a fresh cluster on a loaded machine may take seconds to answer at first.
    try (PartitaClient setup = Worker.connect("fault-setup", hosts.addresses(), SETUP_CALL_TIMEOUT)) {
      workload.setup(setup);
    }
    final long start = history.now();
    final long end = start + TimeUnit.SECONDS.toNanos(options.seconds());
    final List<Worker> workers = new ArrayList<>();
    final List<Thread> threads = new ArrayList<>();
    for (int p = 0; p < options.processes(); p++) {
      final Worker w = new Worker(p, options.processes(), workload, history, hosts.addresses(),
          options.seed() * 1_000_003L + p, end);
      workers.add(w);
      threads.add(new Thread(w, "worker-" + p));
    }
    final NemesisRunner nemesis = new NemesisRunner(schedule, hosts, history, options.seed(), end);
    final Thread nemesisThread = new Thread(nemesis, "nemesis");
    threads.forEach(Thread::start);
    nemesisThread.start();
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(options.seconds() + 120));
    }
    nemesisThread.join(TimeUnit.MINUTES.toMillis(10));
    final long workloadEnd = history.now();
    summary.operations(history.completions(), history.openOperations());
    summary.faults(history.faults());
    summary.add("availability:");
    for (String line : new Availability(history.completions(), history.faults(), start, workloadEnd).lines()) {
      summary.add("  " + line);
    }
    hosts.healAll();
    return finalState(hosts, history, workers, nemesis.error());
  }

  private LiveResults finalState(Hosts hosts, History history, List<Worker> workers, Exception nemesisError)
      throws IOException, InterruptedException {
    final FinalReads finals = new FinalReads(workload, history);
    Set<Long> applied = Set.of();
    String live = "";
    final Set<String> throughHosts = new java.util.TreeSet<>();
    int process = FinalReads.FINAL_PROCESS;
    final List<String> survivors = hosts.survivors().stream().map(h -> hosts.addresses().get(h)).toList();
    if (survivors.size() < hosts.addresses().size()) {
      summary.add("final reads from the " + survivors.size() + " surviving hosts " + survivors
          + " (the others were killed and stay dead)");
    }
    for (String address : survivors) {
      try (PartitaClient client = Worker.connect("fault-final", List.of(address))) {
        finals.record(client, address, process++);
        applied = finals.applied(client);
        live = finals.stateChecksum(client);
        throughHosts.add(live);
      }
    }
    final ReplicaVerdict.Copies copies =
        !hosts.restartable() && options.kfactor() > 0 ? CopyChecksums.read(hosts.addresses(), hosts.survivors())
        : null;
    hosts.stopAll();
    final String error = nemesisError == null ? null : nemesisError.toString();
    if (!hosts.restartable()) {
      return clusterResults(Audit.of(workers, applied), throughHosts, survivors.size(), copies, error);
    }
    hosts.healAll();
    String recovered = "";
    for (String address : hosts.addresses()) {
      try (PartitaClient client = Worker.connect("fault-final-restarted", List.of(address))) {
        finals.record(client, address + " after restart", process++);
        recovered = finals.stateChecksum(client);
      }
    }
    hosts.stopAll();
    final boolean same = live.equals(recovered);
    return new LiveResults(Audit.of(workers, applied), "copies compared: the state read from the running host "
        + "after healing (SHA-256 " + live + ") and the state its command log recovered after a clean restart "
        + "(SHA-256 " + recovered + ")", new ReplicaVerdict(same ? "yes" : "no", same), error);
  }

  /**
   * A cluster's results: the state read through each host must be the
   * same (each reaches every partition's leader); the copies of each
   * partition the final map lists on the surviving hosts are compared by
   * ReplicaVerdict from every copy's {@code @Statistics CHECKSUM} (n/a with
   * K = 0).
   */
  private LiveResults clusterResults(Audit audit, Set<String> throughHosts, int survivors,
      ReplicaVerdict.Copies copyChecksums, String nemesisError) {
    final ReplicaVerdict copies = ReplicaVerdict.of(options.kfactor(), copyChecksums,
        options.hosts() - survivors);
    final String line = "copies compared: " + (options.kfactor() == 0 ? "none (K=0, one copy per partition)"
        : copyChecksums.checksums().size() + " copies' @Statistics CHECKSUM (K=" + options.kfactor()
        + "), those the final map lists: " + copyChecksums.members())
        + "; the state read through each of the " + survivors + " surviving hosts after healing: "
        + (throughHosts.size() == 1 ? "the same, SHA-256 " + throughHosts.iterator().next()
        : "DIFFERS: " + throughHosts);
    final ReplicaVerdict verdict = throughHosts.size() == 1 ? copies
        : new ReplicaVerdict("no (the hosts answered different states: " + throughHosts.size() + " checksums)",
            false);
    return new LiveResults(audit, line, verdict, nemesisError);
  }

  /** The clients' log (reconnections, lost connections: expected under faults) goes to a file, not the terminal. */
  private static void logTo(Path file) throws IOException {
    final Logger root = Logger.getLogger("");
    for (Handler h : root.getHandlers()) {
      root.removeHandler(h);
    }
    final FileHandler handler = new FileHandler(file.toString());
    handler.setFormatter(new SimpleFormatter());
    root.addHandler(handler);
  }

  private void writeSchedule(Schedule schedule) throws IOException {
    final List<String> lines = new ArrayList<>();
    lines.add("# seed " + options.seed() + ": quiet ms (after the previous healing), nemesis, held ms;"
        + " faults that would end in the last " + Schedule.TAIL_MILLIS + " ms are not played");
    for (Schedule.Fault f : schedule.faults()) {
      lines.add(f.quietMillis() + " " + f.nemesis() + " " + f.holdMillis());
    }
    Files.write(runDir.resolve("schedule.txt"), lines, StandardCharsets.UTF_8);
  }

  /** A passing run's data directory and power-cut journal are not worth their space; a failing run keeps them. */
  private void deleteData() throws IOException {
    Files.deleteIfExists(runDir.resolve("powercut.journal"));
    final Path data = runDir.resolve("data");
    if (!Files.exists(data)) {
      return;
    }
    try (var paths = Files.walk(data)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
