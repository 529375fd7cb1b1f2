package org.partita.bench.voter.driver;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import org.partita.client.ClientConfig;
import org.partita.client.TlsOptions;
import org.partita.client.PartitaClient;
import org.partita.client.PartitaClientException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The Voter driver: calls Vote against running servers (async from one
 * thread, or sync from many), prints a progress line every display interval
 * and a final report, checks that the database holds exactly the votes it
 * saw accepted, and optionally writes the result as JSON
 * (bench/voter/README.md).
 *
 * <p>Exit codes: 0 consistent; 1 the consistency check failed; 2 bad
 * options; 3 the run could not start or finish (no server, Initialize or the
 * final reads failed, the JSON file could not be written).
 *
 * <p>Thread model: {@link #call} runs the whole benchmark on the calling
 * thread; it starts the load's and the progress line's threads and ends
 * them before returning.
 */
@Command(name = "voter-driver", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Run the Voter benchmark against Partita servers with the Voter schema (bench/voter/ddl.sql).",
        "Exit codes: 0 consistent, 1 consistency check failed, 2 bad options, 3 could not run."})
public final class VoterDriver implements Callable<Integer> {
  static final int EXIT_INCONSISTENT = 1;
  static final int EXIT_CANNOT_RUN = 3;
  private static final int MAX_CONTESTANTS = 1000;
  private static final String[] NAMES = {"Edwina Burnam", "Tabatha Gehling", "Kelly Clauss", "Jessie Alloway",
      "Alana Bregman", "Jessie Eichman"};

  /** How Vote is called. */
  enum Mode { ASYNC, SYNC }

  @Spec
  private CommandSpec spec;

  @Option(names = "--servers", paramLabel = "HOST:PORT", split = ",",
      description = "servers to connect to, comma-separated (default: 127.0.0.1:21212)")
  private List<String> servers = List.of("127.0.0.1:21212");

  @Option(names = "--tls-trust", paramLabel = "PEM", description = "speak TLS, trusting the certificates of "
      + "this PEM file (a server started with --tls-*; docs/security.md)")
  private Path tlsTrust;

  @Option(names = "--user", paramLabel = "NAME", description = "log in as this user (a server started with "
      + "--users); the password comes from $PARTITA_PASSWORD")
  private String user;

  @Option(names = "--duration", paramLabel = "S", description = "measured seconds (default: ${DEFAULT-VALUE})")
  private double duration = 30;

  @Option(names = "--warmup", paramLabel = "S", description = "seconds of warm-up before measuring, not "
      + "counted in the figures (default: ${DEFAULT-VALUE})")
  private double warmup = 5;

  @Option(names = "--mode", paramLabel = "async|sync", description = "async: one thread, asynchronous calls; "
      + "sync: --threads threads, one synchronous call at a time each (default: async)")
  private Mode mode = Mode.ASYNC;

  @Option(names = "--threads", paramLabel = "N", description = "calling threads in sync mode "
      + "(default: ${DEFAULT-VALUE})")
  private int threads = 16;

  @Option(names = "--ratelimit", paramLabel = "CALLS/S", description = "calls per second, 0 = as fast as "
      + "possible (async: call n at start + n/rate; sync: each thread paced at rate/threads) "
      + "(default: ${DEFAULT-VALUE})")
  private long rateLimit = 0;

  @Option(names = "--contestants", paramLabel = "N", description = "contestants (default: ${DEFAULT-VALUE})")
  private int contestants = 6;

  @Option(names = "--maxvotes", paramLabel = "N", description = "votes allowed per phone number "
      + "(default: ${DEFAULT-VALUE})")
  private long maxVotes = 2;

  @Option(names = "--display-interval", paramLabel = "S", description = "seconds between progress lines "
      + "(default: ${DEFAULT-VALUE})")
  private double displayInterval = 5;

  @Option(names = "--json", paramLabel = "FILE", description = "also write the result as one JSON object to FILE")
  private Path json;

  private final PrintStream out;

  public VoterDriver() {
    this(System.out);
  }

  VoterDriver(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) {
    System.exit(execute(System.out, args));
  }

  /** Parses {@code args} and runs; returns the exit code. */
  static int execute(PrintStream out, String... args) {
    return new CommandLine(new VoterDriver(out)).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
  }

  @Override
  public Integer call() throws InterruptedException {
    checkOptions();
    final ClientConfig.Builder builder = ClientConfig.builder().clientName("voter-driver")
        .callTimeout(Duration.ofSeconds(30));
    if (tlsTrust != null) {
      builder.tls(TlsOptions.builder().trustCertificates(tlsTrust).build());
    }
    if (user != null) {
      builder.credentials(user, System.getenv().getOrDefault("PARTITA_PASSWORD", ""));
    }
    final ClientConfig config = builder.build();
    try (PartitaClient client = new PartitaClient(config)) {
      final Standings before;
      try {
        for (String server : servers) {
          client.connect(server.trim());
        }
        final long initialized = client.call("Initialize", contestants, names(contestants)).firstLong();
        if (initialized != contestants) {
          out.printf("voter: note: the database already had %d contestant(s), not %d; the driver still votes for"
              + " 1..%d and sends %d as the invalid one%n", initialized, contestants, contestants, contestants + 1);
        }
        before = Standings.read(client);
      } catch (PartitaClientException | IllegalArgumentException e) {
        System.err.println("voter: cannot start: " + e.getMessage());
        return EXIT_CANNOT_RUN;
      }
      return run(client, before);
    }
  }

  private int run(PartitaClient client, Standings before) throws InterruptedException {
    out.printf("voter: %s, warm-up %.1f s, then %.1f s measured%n", description(client), warmup, duration);
    final Latencies latencies = new Latencies();
    final Load load = load(client, latencies);
    final Outcomes warm = new Outcomes(contestants);
    final Outcomes measured = new Outcomes(contestants);
    final double seconds;
    final Histogram histogram;
    try (Progress progress = new Progress(latencies, out, displayInterval)) {
      load.run(System.nanoTime() + nanos(warmup), warm);
      latencies.startMeasuring();
      progress.phase("run");
      final long start = System.nanoTime();
      load.run(start + nanos(duration), measured);
      seconds = (System.nanoTime() - start) / 1e9;
      histogram = latencies.finish();
    }
    return finish(client, before, new Outcomes[] {warm, measured}, seconds, histogram);
  }

  private int finish(PartitaClient client, Standings before, Outcomes[] phases, double seconds,
      Histogram histogram) {
    final Report report;
    try {
      final Standings after = Standings.read(client);
      report = new Report(settings(client), seconds, histogram, phases[0], phases[1], after,
          Consistency.check(before, after, phases));
    } catch (PartitaClientException e) {
      System.err.println("voter: cannot read the standings: " + e.getMessage());
      return EXIT_CANNOT_RUN;
    }
    report.print(out);
    if (json != null) {
      try {
        report.writeJson(json);
      } catch (IOException e) {
        System.err.println("voter: cannot write " + json + ": " + e.getMessage());
        return EXIT_CANNOT_RUN;
      }
    }
    return report.consistency().consistent() ? 0 : EXIT_INCONSISTENT;
  }

  private Load load(PartitaClient client, Latencies latencies) {
    final VoteGenerator generator = new VoteGenerator(contestants, new SplittableRandom());
    return mode == Mode.ASYNC ? new AsyncLoad(client, generator, latencies, maxVotes, rateLimit)
        : new SyncLoad(client, generator, latencies, maxVotes, rateLimit, threads);
  }

  private String description(PartitaClient client) {
    final String how = mode == Mode.ASYNC ? "async" : "sync, " + threads + " threads";
    final String rate = rateLimit == 0 ? "firehose" : String.format("%,d calls/s", rateLimit);
    return how + " " + rate + " against " + String.join(",", servers) + " ("
        + client.topology().partitionCount() + " partition(s))";
  }

  private Map<String, Object> settings(PartitaClient client) {
    final Map<String, Object> s = new LinkedHashMap<>();
    s.put("description", description(client));
    s.put("mode", mode.name().toLowerCase());
    s.put("threads", mode == Mode.ASYNC ? 1 : threads);
    s.put("ratelimit", rateLimit);
    s.put("servers", String.join(",", servers));
    s.put("partitions", client.topology().partitionCount());
    s.put("warmup_s", warmup);
    s.put("contestants", contestants);
    s.put("maxvotes", maxVotes);
    return s;
  }

  private void checkOptions() {
    require(!servers.isEmpty() && servers.stream().noneMatch(String::isBlank), "--servers needs host:port values");
    require(duration > 0, "--duration must be more than 0 seconds, got " + duration);
    require(warmup >= 0, "--warmup must be 0 or more seconds, got " + warmup);
    require(threads >= 1, "--threads must be at least 1, got " + threads);
    require(rateLimit >= 0, "--ratelimit must be 0 (none) or more calls/s, got " + rateLimit);
    require(contestants >= 1 && contestants <= MAX_CONTESTANTS,
        "--contestants must be between 1 and " + MAX_CONTESTANTS + ", got " + contestants);
    require(maxVotes >= 1, "--maxvotes must be at least 1, got " + maxVotes);
    require(displayInterval > 0, "--display-interval must be more than 0 seconds, got " + displayInterval);
  }

  private void require(boolean ok, String message) {
    if (!ok) {
      throw new ParameterException(spec.commandLine(), message);
    }
  }

  /** The names Initialize loads: six classic ones, then "Contestant 7", "Contestant 8", ... */
  static String names(int count) {
    final StringBuilder names = new StringBuilder();
    for (int i = 0; i < count; i++) {
      names.append(i == 0 ? "" : ",").append(i < NAMES.length ? NAMES[i] : "Contestant " + (i + 1));
    }
    return names.toString();
  }

  private static long nanos(double seconds) {
    return (long) (seconds * 1e9);
  }
}
