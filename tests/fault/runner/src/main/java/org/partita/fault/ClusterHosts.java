package org.partita.fault;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.partita.client.ClientConfig;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/**
 * A local cluster driven through {@code scripts/cluster} (docs/cluster.md,
 * "Running a cluster today"): host i runs on 127.0.0.(i+1) with the run's
 * K and sites per host, on client, HTTP and internal ports chosen free once
 * per run (so runs do not collide with other clusters on this machine), its
 * directory being {@code -Dpartita.fault.cluster} (set by tests/fault/run,
 * which stops what is left there when it exits) or {@code RUN/cluster}.
 * The schema is the workload's plus {@code workloads/flood.sql} (the
 * flood-minority nemesis's table). Every host writes a command log in the
 * run's mode ({@code --command-log}). Kill, pause and resume are the
 * script's; a killed host comes back by rejoin ({@link #restart}, runs
 * with the rejoin nemesis), and {@link #recover} waits for the survivors
 * to take over its partitions (K ≥ 1). Once every host was killed (and,
 * under the power-cut shim of a power-loss run, lost what it had not
 * synced: {@link #dropUnsyncedWrites}), {@link #restartAll} restarts the
 * whole cluster from the hosts' logs ({@code scripts/cluster start
 * --recover}). A host cut off past the heartbeat timeout (the isolate
 * nemesis) is waited for until declared dead ({@link #awaitDeclaredDead})
 * and, after healing, until it rejoined by itself ({@link #awaitRejoined}).
 * The hosts' heartbeat timeout is {@code PARTITA_HEARTBEAT_TIMEOUT} when
 * the environment sets it, else {@link #HEARTBEAT_TIMEOUT}: longer than any
 * pause or partition cut the schedule holds, so only a kill and isolate
 * make a host fail over.
 * The metadata leader is read from the hosts' logs ({@link
 * #metadataLeader}). Network cuts go
 * through the run's {@link Firewall}; when a cgroup v2 hierarchy is mounted
 * under /sys/fs/cgroup, host i runs in the cgroup {@code
 * <table name>/host-i} there ({@code scripts/cluster start --cgroup}), so
 * the rules can match each host's own sockets, and the cgroups are removed
 * once the hosts are stopped. The scripts' output goes to
 * {@code RUN/cluster.log}; the hosts' logs are copied into the run
 * directory when the cluster stops. Used by the nemesis thread and the main
 * thread one after the other, and by the shutdown hook: methods are
 * synchronized.
 */
final class ClusterHosts implements Hosts {
  static final long START_TIMEOUT_SECONDS = 360;
  /** How many times {@link #startAll} starts the hosts when one finds a port drawn for it taken. */
  static final int START_ATTEMPTS = 3;
  static final long SCRIPT_TIMEOUT_SECONDS = 90;
  static final Path CGROUP_FS = Path.of("/sys/fs/cgroup");
  /**
   * The heartbeat timeout a run gives its hosts unless the environment
   * says otherwise: above {@link Schedule#FAULT_MAX_MILLIS}, so a pause or
   * a partition cut is healed before its host is declared dead (only
   * isolate holds its cut past it), and short enough that a kill fails over
   * within a short run.
   */
  static final String HEARTBEAT_TIMEOUT = "8s";
  /** How long {@link #recover} waits for the survivors to lead a killed host's partitions. */
  static final long FAILOVER_TIMEOUT_SECONDS = 120;
  /** The line a voter logs when it becomes the metadata leader (K ≥ 1: its failure detection starts). */
  static final String LEADS_METADATA = "failure detection: this voter leads the metadata group";
  static final String REJOIN_MISSING = "a host returns to a cluster only by rejoin, which a run does only with "
      + "the rejoin nemesis (--nemesis ...,rejoin; docs/cluster.md, \"Rejoin\")";
  /** How long {@link #restart} waits for a rejoined host's copies. */
  static final long REJOIN_TIMEOUT_SECONDS = 180;

  private final RunOptions options;
  private final Path runDir;
  private final Path clusterDir;
  private final Path scriptLog;
  private final Set<Integer> paused = new TreeSet<>();
  private final Set<Integer> dead = new TreeSet<>();
  /** How long a host's thread dump may take when a run ends early. */
  private static final long THREAD_DUMP_SECONDS = 20;
  private final Thread shutdownHook = new Thread(this::close, "cluster-hosts-shutdown");
  private List<String> addresses = List.of();
  private Path cgroup;
  private Firewall firewall;
  private boolean started;

  ClusterHosts(RunOptions options, Path runDir) {
    this.options = options;
    this.runDir = runDir;
    final String dir = System.getProperty("partita.fault.cluster");
    this.clusterDir = dir == null || dir.isEmpty() ? runDir.resolve("cluster") : Path.of(dir);
    this.scriptLog = runDir.resolve("cluster.log");
  }

  @Override
  public synchronized List<String> addresses() {
    return addresses;
  }

  /**
   * Starts the hosts on ports drawn below the ephemeral range; when a host
   * could not bind one because another process took it after the draw,
   * starts them again on other ports (at most {@link #START_ATTEMPTS} times).
   */
  @Override
  public synchronized void startAll() throws IOException, InterruptedException {
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    started = true;
    final Optional<Path> cgroupRoot = cgroup2Root();
    if (cgroupRoot.isPresent()) {
      cgroup = cgroupRoot.get().resolve(tableName());
    } else {
      note("no cgroup v2 hierarchy under " + CGROUP_FS + ": partitions cut the metadata port by destination only");
    }
    final ListenPorts listenPorts = ListenPorts.belowEphemeralRange();
    int[] ports;
    for (int attempt = 1; ; attempt++) {
      ports = listenPorts.draw(options.hosts());
      try {
        script(START_TIMEOUT_SECONDS, startArguments(ports));
        break;
      } catch (IllegalStateException e) {
        if (attempt == START_ATTEMPTS || !lastStartFoundAPortTaken(scriptLog)) {
          throw e;
        }
        note("a host could not bind a port drawn for it (another process took it after the draw): starting the"
            + " cluster again on other ports (attempt " + (attempt + 1) + " of " + START_ATTEMPTS + ")");
      }
    }
    final List<String> servers = List.of(Files.readString(clusterDir.resolve("servers"), StandardCharsets.UTF_8)
        .trim().split(","));
    if (servers.size() != options.hosts()) {
      throw new IllegalStateException("scripts/cluster start listed " + servers + ", not " + options.hosts()
          + " hosts");
    }
    addresses = servers;
    final List<String> hostAddresses = new ArrayList<>();
    for (int h = 0; h < options.hosts(); h++) {
      hostAddresses.add(hostAddress(h));
    }
    final List<String> cgroups = new ArrayList<>();
    int level = 0;
    for (int h = 0; cgroup != null && h < options.hosts(); h++) {
      final Path hostGroup = cgroup.resolve("host-" + h);
      cgroups.add(CGROUP_FS.relativize(hostGroup).toString());
      level = cgroupRoot.get().relativize(hostGroup).getNameCount();
    }
    firewall = new Firewall(tableName(), new NftRules.Ports(hostAddresses, ports[2], ports[2] + 1,
        voters(options.hosts()), cgroups, level));
  }

  @Override
  public synchronized void kill(int host) throws IOException, InterruptedException {
    requireHost(host);
    script(SCRIPT_TIMEOUT_SECONDS, "kill", Integer.toString(host));
    dead.add(host);
    paused.remove(host);
  }

  /**
   * Rejoin (docs/cluster.md, "Rejoin"): starts the killed {@code host} again
   * with {@code scripts/cluster restart} and returns once a surviving host's
   * map shows every partition with K+1 copies again (its copies streamed
   * from their leaders and added in a new epoch); while another killed host
   * is still to rejoin (K ≥ 2 kills several at once), once its script
   * returned, since the copies are all back only after the last one.
   * Refused unless the run asked for the {@code rejoin} nemesis
   * ({@link #rejoins}).
   */
  @Override
  public void restart(int host) throws IOException, InterruptedException {
    if (!rejoins()) {
      throw new IllegalStateException("host " + host + " cannot start again: " + REJOIN_MISSING);
    }
    requireHost(host);
    script(START_TIMEOUT_SECONDS, "restart", Integer.toString(host));
    synchronized (this) {
      dead.remove(host);
      if (!dead.isEmpty()) {
        // Another killed host rejoins next; the copies are all back only after the last one.
        return;
      }
    }
    final String last = awaitCopies(host);
    if (last != null) {
      throw new IllegalStateException("host " + host + " restarted but its copies did not come back within "
          + REJOIN_TIMEOUT_SECONDS + " s (" + last + ")");
    }
  }

  /**
   * Whole-cluster restart (docs/cluster.md, "Durability on a cluster"):
   * {@code scripts/cluster start --recover} once every host is dead, then
   * waits until a host's map shows every partition with K+1 copies again (a
   * copy a rejoin stream had given is rebuilt from another by a new stream).
   */
  @Override
  public void restartAll() throws IOException, InterruptedException {
    synchronized (this) {
      if (dead.size() != options.hosts()) {
        throw new IllegalStateException("a whole-cluster restart needs every host dead; alive: " + survivors());
      }
      script(START_TIMEOUT_SECONDS, "start", "--recover");
      dead.clear();
      paused.clear();
      addresses = List.of(Files.readString(clusterDir.resolve("servers"), StandardCharsets.UTF_8).trim()
          .split(","));
    }
    if (options.kfactor() == 0) {
      return;
    }
    final String last = awaitSurvivor(0, REJOIN_TIMEOUT_SECONDS, client -> {
      final List<Integer> copies = copyCounts(client);
      return copies.stream().allMatch(n -> n == options.kfactor() + 1) ? null : "copies per partition " + copies;
    });
    if (last != null) {
      throw new IllegalStateException("the cluster restarted from its logs but its copies did not all come back"
          + " within " + REJOIN_TIMEOUT_SECONDS + " s (" + last + ")");
    }
  }

  @Override
  public int kfactor() {
    return options.kfactor();
  }

  /**
   * Waits until every partition has K+1 copies in the map of a surviving
   * host other than {@code returning} (whose own map may be stale: a host
   * cut off still shows the map from before it was declared dead); null
   * then, else what that host said last.
   */
  private String awaitCopies(int returning) throws InterruptedException {
    final int other = survivors().stream().filter(h -> h != returning).findFirst().orElseThrow(() ->
        new IllegalStateException("no host other than " + returning + " to ask"));
    return awaitSurvivor(other, REJOIN_TIMEOUT_SECONDS, client -> {
      final List<Integer> copies = copyCounts(client);
      return copies.stream().allMatch(n -> n == options.kfactor() + 1) ? null : "copies per partition " + copies;
    });
  }

  /**
   * A host cut off past the heartbeat timeout (the isolate nemesis): waits
   * until a host other than {@code host} shows no partition with a copy on
   * it.
   */
  @Override
  public void awaitDeclaredDead(int host) throws InterruptedException {
    final int other = survivors().stream().filter(h -> h != host).findFirst().orElseThrow(() ->
        new IllegalStateException("no host other than " + host + " to ask"));
    final String last = awaitSurvivor(other, FAILOVER_TIMEOUT_SECONDS, client -> {
      final List<List<Integer>> copies = copyHosts(client);
      return copies.stream().anyMatch(c -> c.contains(host)) ? "copies on hosts " + copies : null;
    });
    if (last != null) {
      throw new IllegalStateException("host " + host + " was cut off and not declared dead within "
          + FAILOVER_TIMEOUT_SECONDS + " s (host " + other + " says: " + last + ")");
    }
  }

  /** After a host declared dead was let back (the isolate nemesis): waits until it rejoined by itself. */
  @Override
  public void awaitRejoined(int host) throws InterruptedException {
    final String last = awaitCopies(host);
    if (last != null) {
      throw new IllegalStateException("the copies of host " + host + ", declared dead, did not come back within "
          + REJOIN_TIMEOUT_SECONDS + " s of healing (" + last + ")");
    }
  }

  /** The hosts holding each partition's copies (by partition id) in {@code @SystemCatalog PARTITIONS}. */
  private static List<List<Integer>> copyHosts(PartitaClient client) {
    return List.copyOf(CopyChecksums.members(client.call("@SystemCatalog", "PARTITIONS").results().get(0)).values());
  }

  @Override
  public boolean rejoins() {
    return options.nemeses().contains("rejoin");
  }

  /** How many copies each partition has (by partition id) in {@code @SystemCatalog PARTITIONS}. */
  private static List<Integer> copyCounts(PartitaClient client) {
    return copyHosts(client).stream().map(List::size).toList();
  }

  /**
   * Waits until a surviving host's map lists no copy on the killed
   * {@code host}: the metadata leader declared it dead and its partitions
   * moved to their other copies. (Waiting for its led partitions alone
   * returned at once for a host that led none, a host back by rejoin
   * holding replicas only, and the rejoin nemesis then restarted it before
   * it was declared dead.) The host stays dead.
   */
  @Override
  public void recover(int host) throws InterruptedException {
    final List<Integer> survivors = survivors();
    if (survivors.isEmpty()) {
      throw new IllegalStateException("no host survives to take over host " + host + "'s partitions");
    }
    final String last = awaitSurvivor(survivors.get(0), FAILOVER_TIMEOUT_SECONDS, client -> {
      final List<List<Integer>> copies = copyHosts(client);
      return copies.stream().anyMatch(c -> c.contains(host)) ? "copies on hosts " + copies : null;
    });
    if (last != null) {
      throw new IllegalStateException("host " + host + " was killed and its partitions did not fail over within "
          + FAILOVER_TIMEOUT_SECONDS + " s (host " + survivors.get(0) + " says: " + last + ")");
    }
  }

  /**
   * Asks surviving host {@code survivor} every 200 ms, for at most
   * {@code timeoutSeconds}, until {@code check} returns null (what it waits
   * for holds); returns null then, else the last thing it saw or the last
   * error.
   */
  private String awaitSurvivor(int survivor, long timeoutSeconds, Function<PartitaClient, String> check)
      throws InterruptedException {
    final String address = addresses().get(survivor);
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      try (PartitaClient client = alone(address)) {
        last = check.apply(client);
        if (last == null) {
          return null;
        }
      } catch (RuntimeException e) {
        last = Outcomes.describe(e);
      }
      TimeUnit.MILLISECONDS.sleep(200);
    }
    return last;
  }

  @Override
  public synchronized List<Integer> survivors() {
    final List<Integer> out = new ArrayList<>();
    for (int h = 0; h < addresses.size(); h++) {
      if (!dead.contains(h)) {
        out.add(h);
      }
    }
    return out;
  }

  /** Partition 0's leader as a surviving host's map says it. */
  @Override
  public int coordinator() {
    try (PartitaClient client = alone(addresses().get(survivors().get(0)))) {
      return partitionLeaders(client).get(0);
    }
  }

  /**
   * The metadata leader as the hosts' logs tell it: the surviving host
   * whose log has the latest {@link #LEADS_METADATA} line (a voter logs it
   * when it is elected; losing the leadership is not logged, so the latest
   * election names the leader once an election is over). Empty with K = 0
   * (no failure detection, so no such line) or when no log has one.
   */
  @Override
  public synchronized OptionalInt metadataLeader() {
    return metadataLeader(clusterDir, survivors());
  }

  /** {@link #metadataLeader()} from the logs {@code DIR/host-I.log} of the hosts {@code hosts}. */
  static OptionalInt metadataLeader(Path clusterDir, List<Integer> hosts) {
    OptionalInt leader = OptionalInt.empty();
    String latest = "";
    for (int h : hosts) {
      final Path log = clusterDir.resolve("host-" + h + ".log");
      try {
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
          // Lines start with "yyyy-MM-dd HH:mm:ss.SSS", so they order as text.
          if (line.contains(LEADS_METADATA) && line.length() > 23 && line.substring(0, 23).compareTo(latest) > 0) {
            latest = line.substring(0, 23);
            leader = OptionalInt.of(h);
          }
        }
      } catch (IOException e) {
        // No log yet: that host says nothing.
      }
    }
    return leader;
  }

  /** The heartbeat timeout the hosts run with (see {@link #HEARTBEAT_TIMEOUT}). */
  static String heartbeatTimeout() {
    final String set = System.getenv("PARTITA_HEARTBEAT_TIMEOUT");
    return set == null || set.isEmpty() ? HEARTBEAT_TIMEOUT : set;
  }

  /** A client of the host at {@code address} alone (its answers are that host's). */
  private static PartitaClient alone(String address) {
    return alone(address, ClientConfig.builder().clientName("fault-nemesis").callTimeout(Duration.ofSeconds(5)));
  }

  /**
   * A client of the host at {@code address} alone, as {@code config} says
   * (host discovery off, so its answers are that host's).
   */
  static PartitaClient alone(String address, ClientConfig.Builder config) {
    final PartitaClient client = new PartitaClient(config.discoverHosts(false).connectTimeout(Duration.ofSeconds(5))
        .build());
    try {
      client.connect(address);
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
    return client;
  }

  /** Each partition's leader host id (by partition id) from {@code @SystemCatalog PARTITIONS}. */
  private static List<Integer> partitionLeaders(PartitaClient client) {
    final ResultTable table = client.call("@SystemCatalog", "PARTITIONS").results().get(0);
    final int partition = table.columnIndex("PARTITION_ID");
    final int leader = table.columnIndex("LEADER_HOST_ID");
    final java.util.TreeMap<Integer, Integer> byPartition = new java.util.TreeMap<>();
    while (table.advanceRow()) {
      byPartition.put((int) table.getLong(partition), (int) table.getLong(leader));
    }
    return List.copyOf(byPartition.values());
  }

  @Override
  public synchronized void pause(int host) throws IOException, InterruptedException {
    requireHost(host);
    script(SCRIPT_TIMEOUT_SECONDS, "pause", Integer.toString(host));
    paused.add(host);
  }

  @Override
  public synchronized void resume(int host) throws IOException, InterruptedException {
    requireHost(host);
    script(SCRIPT_TIMEOUT_SECONDS, "resume", Integer.toString(host));
    paused.remove(host);
  }

  /**
   * Drops what dead host {@code host} wrote to its command log but had not
   * synced ({@code partita_powercut restore} of the journal its shim kept,
   * {@code scripts/cluster}'s {@code host-I.powercut.journal}), as a power cut
   * would. REQUIRES: a power-loss run (every host under the shim).
   */
  @Override
  public void dropUnsyncedWrites(int host) throws IOException, InterruptedException {
    requireHost(host);
    if (!options.powerLoss()) {
      throw new IllegalStateException("the hosts did not run under the power-cut shim (no power-loss in --nemesis)");
    }
    synchronized (this) {
      if (!dead.contains(host)) {
        throw new IllegalStateException("the power cut needs host " + host + " dead first");
      }
    }
    final Path journal = clusterDir.resolve("host-" + host + ".powercut.journal");
    if (!Files.exists(journal) || Files.size(journal) == 0) {
      throw new IllegalStateException("the power-cut journal " + journal + " records nothing: the shim did not run");
    }
    final Path report = runDir.resolve("powercut-restore.log");
    final Process restore = new ProcessBuilder(options.powercutTool().toString(), "restore", journal.toString())
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(report.toFile())).start();
    if (!restore.waitFor(120, TimeUnit.SECONDS) || restore.exitValue() != 0) {
      restore.destroyForcibly();
      throw new IllegalStateException("partita_powercut restore " + journal + " failed: see " + report);
    }
    Files.delete(journal);
  }

  @Override
  public boolean restartable() {
    return false;
  }

  @Override
  public synchronized void cut(Grudge grudge) throws IOException, InterruptedException {
    if (firewall == null) {
      throw new IllegalStateException("the cluster is not started: no addresses to cut");
    }
    firewall.cut(grudge);
  }

  @Override
  public synchronized void healNetwork() throws IOException, InterruptedException {
    if (firewall != null) {
      firewall.heal();
    }
  }

  @Override
  public synchronized void healAll() throws IOException, InterruptedException {
    healNetwork();
    for (int h : List.copyOf(paused)) {
      resume(h);
    }
    // A host killed alone stays dead unless the run rejoins it: the run ends with the survivors.
  }

  @Override
  public synchronized void stopAll() throws IOException, InterruptedException {
    if (!started) {
      return;
    }
    script(SCRIPT_TIMEOUT_SECONDS, "stop");
    paused.clear();
    started = false;
    keepLogs();
    removeCgroups();
  }

  @Override
  public synchronized List<Path> logs() {
    final List<Path> logs = new ArrayList<>();
    for (int h = 0; h < options.hosts(); h++) {
      logs.add(runDir.resolve("cluster-host-" + h + ".log"));
    }
    return logs;
  }

  @Override
  public synchronized void close() {
    if (firewall != null) {
      firewall.close();
    }
    if (started) {
      // The run ended early (an exception): what each host was doing then is the first thing to look at.
      dumpThreads();
      try {
        script(SCRIPT_TIMEOUT_SECONDS, "stop");
      } catch (IOException | RuntimeException e) {
        System.err.println("fault run: scripts/cluster stop failed (" + e.getMessage() + "); killing the hosts");
        killLeftovers();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        killLeftovers();
      }
      started = false;
      keepLogs();
    }
    removeCgroups();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // Already shutting down: this is the hook.
    }
  }

  /**
   * The cgroup v2 hierarchy from /proc/mounts, when it is under {@link
   * #CGROUP_FS} (nft names cgroups relative to it) and writable; else empty.
   */
  static Optional<Path> cgroup2Root() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/mounts"), StandardCharsets.UTF_8)) {
        final String[] fields = line.split(" ");
        if (fields.length > 2 && fields[2].equals("cgroup2")) {
          final Path mount = Path.of(fields[1]);
          return mount.startsWith(CGROUP_FS) && Files.isWritable(mount) ? Optional.of(mount) : Optional.empty();
        }
      }
    } catch (IOException e) {
      // No /proc/mounts: no cgroups.
    }
    return Optional.empty();
  }

  /** Removes the hosts' cgroups (they are empty once the hosts exited). */
  private void removeCgroups() {
    if (cgroup == null || !Files.exists(cgroup)) {
      return;
    }
    try {
      for (int h = 0; h < options.hosts(); h++) {
        Files.deleteIfExists(cgroup.resolve("host-" + h));
      }
      Files.deleteIfExists(cgroup);
    } catch (IOException e) {
      System.err.println("fault run: could not remove the cgroup " + cgroup + ": " + e.getMessage()
          + " (tests/fault/run removes it when it exits)");
    }
  }

  private void note(String line) throws IOException {
    Files.writeString(scriptLog, "fault run: " + line + "\n", StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
  }

  /** Host {@code host}'s own address: 127.0.0.(host+1), as scripts/cluster binds it. */
  static String hostAddress(int host) {
    return "127.0.0." + (host + 1);
  }

  /** How many metadata voters a cluster of {@code hosts} has: 3, or 1 of 2 (docs/cluster.md). */
  static int voters(int hosts) {
    return hosts >= 3 ? 3 : 1;
  }

  /** The run's nftables table: {@code -Dpartita.fault.table} from tests/fault/run, or one named for this JVM. */
  static String tableName() {
    final String name = System.getProperty("partita.fault.table");
    return name == null || name.isEmpty() ? "partita_fault_" + ProcessHandle.current().pid() : name;
  }

  private void script(long timeoutSeconds, String... args) throws IOException, InterruptedException {
    final List<String> command = new ArrayList<>();
    command.add(options.root().resolve("scripts/cluster").toString());
    command.addAll(List.of(args));
    Files.writeString(scriptLog, "$ scripts/cluster " + String.join(" ", args) + "\n", StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(scriptLog.toFile()));
    builder.environment().put("PARTITA_CLUSTER_DIR", clusterDir.toString());
    builder.environment().put("PARTITA_JAVA_OPTS", "-Xmx768m");
    builder.environment().put("PARTITA_HEARTBEAT_TIMEOUT", heartbeatTimeout());
    builder.environment().put("PARTITA_CLUSTER_START_TIMEOUT", Long.toString(START_TIMEOUT_SECONDS - 30));
    if (options.powerLoss()) {
      builder.environment().put("PARTITA_POWERCUT_SHIM", options.powercutShim().toString());
    }
    final Process p = builder.start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("scripts/cluster " + args[0] + " did not finish in " + timeoutSeconds
          + " s; see " + scriptLog);
    }
    if (p.exitValue() != 0) {
      throw new IllegalStateException("scripts/cluster " + String.join(" ", args) + " failed (exit code "
          + p.exitValue() + "): " + tail(scriptLog));
    }
  }

  /**
   * Writes every running, unpaused host's threads ({@code jcmd PID
   * Thread.print}) to {@code RUN/cluster-host-I.threads.txt}, each within
   * {@value #THREAD_DUMP_SECONDS} s; a host that cannot be asked is named on
   * stderr.
   */
  private void dumpThreads() {
    for (int h = 0; h < options.hosts(); h++) {
      if (paused.contains(h) || dead.contains(h)) {
        continue;
      }
      final Path out = runDir.resolve("cluster-host-" + h + ".threads.txt");
      try {
        final String pid = Files.readString(clusterDir.resolve("host-" + h + ".pid")).trim();
        final Process p = new ProcessBuilder("jcmd", pid, "Thread.print").redirectErrorStream(true)
            .redirectOutput(out.toFile()).start();
        if (!p.waitFor(THREAD_DUMP_SECONDS, TimeUnit.SECONDS)) {
          p.destroyForcibly();
          System.err.println("fault run: host " + h + "'s threads not dumped within " + THREAD_DUMP_SECONDS + " s");
        }
      } catch (IOException e) {
        System.err.println("fault run: could not dump host " + h + "'s threads: " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** SIGKILL to every host pid the script recorded (when its stop failed). */
  private void killLeftovers() {
    for (int h = 0; h < options.hosts(); h++) {
      try {
        final long pid = Long.parseLong(Files.readString(clusterDir.resolve("host-" + h + ".pid")).trim());
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly); // SIGKILL ends a paused host too
      } catch (IOException | NumberFormatException e) {
        // No pid file: that host never started.
      }
    }
  }

  private void keepLogs() {
    for (int h = 0; h < options.hosts(); h++) {
      final Path log = clusterDir.resolve("host-" + h + ".log");
      try {
        if (Files.exists(log) && !log.startsWith(runDir)) {
          Files.copy(log, runDir.resolve("cluster-host-" + h + ".log"), StandardCopyOption.REPLACE_EXISTING);
        }
      } catch (IOException e) {
        System.err.println("fault run: could not keep " + log + ": " + e.getMessage());
      }
    }
  }

  private static String tail(Path file) {
    try {
      final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    } catch (IOException e) {
      return "(" + file + " unreadable: " + e.getMessage() + ")";
    }
  }

  private String[] startArguments(int[] ports) {
    final List<String> args = new ArrayList<>(List.of("start", "--hosts", Integer.toString(options.hosts()),
        "--kfactor", Integer.toString(options.kfactor()), "--sites-per-host", Integer.toString(options.sites()),
        "--schema", options.schema() + "," + options.root().resolve("tests/fault/workloads/flood.sql"), "--classes",
        options.classes().toString(), "--port", Integer.toString(ports[0]), "--http-port",
        Integer.toString(ports[1]), "--internal-port", Integer.toString(ports[2]), "--command-log",
        options.commandLog()));
    if (cgroup != null) {
      args.addAll(List.of("--cgroup", cgroup.toString()));
    }
    return args.toArray(String[]::new);
  }

  /** Whether the output of the last {@code scripts/cluster start} in {@code scriptLog} shows a bind refused. */
  static boolean lastStartFoundAPortTaken(Path scriptLog) throws IOException {
    final String log = Files.readString(scriptLog, StandardCharsets.UTF_8);
    final int start = log.lastIndexOf("$ scripts/cluster start");
    return start >= 0 && log.indexOf("Address already in use", start) >= 0;
  }

  private void requireHost(int host) {
    if (host < 0 || host >= options.hosts()) {
      throw new IllegalArgumentException("host " + host + " does not exist: hosts 0 to " + (options.hosts() - 1));
    }
  }
}
