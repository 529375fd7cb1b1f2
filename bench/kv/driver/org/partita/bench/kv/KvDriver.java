package org.partita.bench.kv;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.partita.client.PartitaClientException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The KV driver (bench/kv/README.md): preloads keys, runs Gets and Puts
 * against Partita servers for a warm-up and a measured window, prints
 * progress and a report, and verifies at the end that sampled keys hold the
 * last value it wrote. Exit code 0 when consistent, 1 when a key disagrees
 * or the run could not complete, 2 for bad options.
 */
@Command(name = "kv-driver", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Key-value workload driver: Get/Put of binary values by key against Partita servers "
        + "running bench/kv/ddl.sql.",
        "Exit code: 0 = consistent, 1 = a key did not hold the last value written or the run failed, "
        + "2 = bad options."})
public final class KvDriver implements Callable<Integer> {
  @Spec
  private CommandSpec spec;

  @Option(names = "--servers", split = ",", paramLabel = "HOST:PORT[,...]",
      description = "servers to connect to (default: ${DEFAULT-VALUE})")
  private List<String> servers = List.of("127.0.0.1:21212");

  @Option(names = "--duration", paramLabel = "SECONDS", description = "measured time (default: ${DEFAULT-VALUE})")
  private double duration = 30;

  @Option(names = "--warmup", paramLabel = "SECONDS", description = "load before measuring (default: ${DEFAULT-VALUE})")
  private double warmup = 5;

  @Option(names = "--mode", paramLabel = "async|sync", description = "async: one thread, calls in flight up to "
      + "the client's bound; sync: --threads threads, one call each at a time (default: async)")
  private KvSettings.Mode mode = KvSettings.Mode.ASYNC;

  @Option(names = "--threads", paramLabel = "N", description = "threads in sync mode (default: ${DEFAULT-VALUE})")
  private int threads = 16;

  @Option(names = "--ratelimit", paramLabel = "OPS/S", description = "operations per second; 0 = as fast as "
      + "possible (default: ${DEFAULT-VALUE}). Async: call n goes at start + n/rate and its latency counts from "
      + "then; sync: the client's rate limit")
  private long rateLimit;

  @Option(names = "--display-interval", paramLabel = "SECONDS", description = "seconds between progress lines "
      + "(default: ${DEFAULT-VALUE})")
  private double displayInterval = 5;

  @Option(names = "--json", paramLabel = "FILE", description = "also write the result as JSON to FILE")
  private Path json;

  @Option(names = "--preload", paramLabel = "N", description = "keys written before the run; operations choose "
      + "among them (default: ${DEFAULT-VALUE})")
  private int preload = 100_000;

  @Option(names = "--get-ratio", paramLabel = "R", description = "share of Gets, the rest are Puts "
      + "(default: ${DEFAULT-VALUE})")
  private double getRatio = 0.9;

  @Option(names = "--key-size", paramLabel = "CHARS", description = "key width: \"k\" and zero-padded digits, "
      + "at most 32 (default: ${DEFAULT-VALUE})")
  private int keySize = 32;

  @Option(names = "--value-size", paramLabel = "BYTES", description = "value size, 8 to 1048576 "
      + "(default: ${DEFAULT-VALUE})")
  private int valueSize = 1024;

  @Option(names = "--keys", paramLabel = "uniform|zipf", description = "key choice: uniform, or zipf with "
      + "exponent 0.99 (default: uniform)")
  private KvSettings.KeyDistribution keys = KvSettings.KeyDistribution.UNIFORM;

  @Option(names = "--verify-sample", paramLabel = "N", description = "random keys verified at the end, besides "
      + "every key written in the last second (default: ${DEFAULT-VALUE})")
  private int verifySample = 1000;

  @Option(names = "--seed", paramLabel = "N", description = "random seed of keys, operations and values "
      + "(default: ${DEFAULT-VALUE})")
  private long seed = 42;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command line, with enum values accepted in any case ("async", "ZIPF"). */
  public static CommandLine commandLine() {
    return new CommandLine(new KvDriver()).setCaseInsensitiveEnumValuesAllowed(true);
  }

  @Override
  public Integer call() throws Exception {
    final KvSettings settings;
    try {
      settings = new KvSettings(servers, duration, warmup, mode, threads, rateLimit, displayInterval, json, preload,
          getRatio, keySize, valueSize, keys, verifySample, seed).validate();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    final PrintStream out = System.out;
    final RunResult result;
    try {
      result = new KvBenchmark(settings, out).run();
    } catch (PartitaClientException | IllegalStateException e) {
      System.err.println("kv: " + e.getMessage());
      return 1;
    }
    out.print(result.toText());
    if (json != null) {
      writeJson(result);
      out.println("kv: wrote " + json);
    }
    return result.consistent() ? 0 : 1;
  }

  private void writeJson(RunResult result) throws IOException {
    final Path parent = json.toAbsolutePath().getParent();
    if (parent != null) {
      java.nio.file.Files.createDirectories(parent);
    }
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), result.toJson());
  }
}
