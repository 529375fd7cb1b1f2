package org.partita.bench.kv;

import java.nio.file.Path;
import java.util.List;

/**
 * A driver run's settings, as given on the command line (see {@link
 * KvDriver} for each option's meaning). Immutable; {@link #validate} names
 * the first option out of range.
 */
public record KvSettings(List<String> servers, double durationSeconds, double warmupSeconds, Mode mode,
    int threads, long rateLimit, double displaySeconds, Path json, int preload, double getRatio, int keySize,
    int valueSize, KeyDistribution keys, int verifySample, long seed) {
  /** How operations are issued. */
  public enum Mode { ASYNC, SYNC }

  /** How keys are chosen among the preloaded ones. */
  public enum KeyDistribution { UNIFORM, ZIPF }

  public KvSettings {
    servers = List.copyOf(servers);
  }

  /** @throws IllegalArgumentException naming the first option out of range */
  public KvSettings validate() {
    require(!servers.isEmpty(), "--servers needs at least one host:port");
    require(durationSeconds > 0, "--duration must be positive, got " + durationSeconds);
    require(warmupSeconds >= 0, "--warmup must not be negative, got " + warmupSeconds);
    require(threads >= 1, "--threads must be at least 1, got " + threads);
    require(rateLimit >= 0, "--ratelimit must be 0 (none) or positive, got " + rateLimit);
    require(displaySeconds > 0, "--display-interval must be positive, got " + displaySeconds);
    require(getRatio >= 0 && getRatio <= 1, "--get-ratio must be between 0 and 1, got " + getRatio);
    require(verifySample >= 0, "--verify-sample must not be negative, got " + verifySample);
    new KeySpace(preload, keySize);
    new ValueFactory(valueSize, seed);
    return this;
  }

  /** The mode in lower case, as written on the command line and in the JSON result. */
  public String modeName() {
    return mode.name().toLowerCase(java.util.Locale.ROOT);
  }

  public String keysName() {
    return keys.name().toLowerCase(java.util.Locale.ROOT);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
