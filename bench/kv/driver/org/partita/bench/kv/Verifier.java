package org.partita.bench.kv;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/**
 * Checks, after the run, that keys hold the last value the driver wrote to
 * them: for each sampled key, {@code Get} must return exactly the value of
 * one of the key's candidate puts ({@link WriteLog}). The sample is
 * {@code sampleSize} keys chosen at random plus every key whose last
 * acknowledged put was answered at or after {@code recentSinceNanos}. Keys
 * with a put of unknown outcome are skipped and counted as unverifiable.
 * REQUIRES: no put in flight. Thread model: one thread runs it.
 */
public final class Verifier {
  /** How many mismatches are described in the report. */
  public static final int MAX_EXAMPLES = 5;

  private final PartitaClient client;
  private final KeySpace keys;
  private final ValueFactory values;
  private final WriteLog writes;

  public Verifier(PartitaClient client, KeySpace keys, ValueFactory values, WriteLog writes) {
    this.client = client;
    this.keys = keys;
    this.values = values;
    this.writes = writes;
  }

  /** The outcome: keys checked, how many disagreed, how many were skipped, and a few disagreements described. */
  public record Result(int checked, int mismatches, int unverifiable, List<String> examples) {
    public boolean consistent() {
      return mismatches == 0;
    }
  }

  public Result verify(int sampleSize, long recentSinceNanos, long seed) throws InterruptedException {
    final BitSet sample = sample(sampleSize, recentSinceNanos, seed);
    final List<Integer> checkedKeys = new ArrayList<>();
    final List<CompletableFuture<ClientResponse>> answers = new ArrayList<>();
    int unverifiable = 0;
    for (int key = sample.nextSetBit(0); key >= 0; key = sample.nextSetBit(key + 1)) {
      if (writes.isUncertain(key)) {
        unverifiable++;
        continue;
      }
      checkedKeys.add(key);
      answers.add(client.callAsync(KvOperations.GET, keys.key(key)));
    }
    int mismatches = 0;
    final List<String> examples = new ArrayList<>();
    for (int i = 0; i < answers.size(); i++) {
      final String problem = check(checkedKeys.get(i), answers.get(i));
      if (problem != null) {
        mismatches++;
        if (examples.size() < MAX_EXAMPLES) {
          examples.add(problem);
        }
      }
    }
    return new Result(checkedKeys.size(), mismatches, unverifiable, examples);
  }

  private BitSet sample(int sampleSize, long recentSinceNanos, long seed) {
    final BitSet sample = new BitSet(keys.count());
    final SplittableRandom random = new SplittableRandom(seed);
    final int wanted = Math.min(sampleSize, keys.count());
    while (sample.cardinality() < wanted) {
      sample.set(random.nextInt(keys.count()));
    }
    for (int key = 0; key < keys.count(); key++) {
      if (writes.lastAcknowledgedNanos(key) >= recentSinceNanos) {
        sample.set(key);
      }
    }
    return sample;
  }

  /** Null when the key holds one of its candidate values, else what is wrong. */
  private String check(int key, CompletableFuture<ClientResponse> answer) throws InterruptedException {
    final ClientResponse response;
    try {
      response = answer.get();
    } catch (ExecutionException e) {
      return keys.key(key) + ": Get failed: " + e.getCause();
    }
    if (!response.ok()) {
      return keys.key(key) + ": Get answered " + response.status() + " " + response.errorName() + " "
          + response.message();
    }
    final long[] candidates = writes.candidates(key);
    if (candidates == null) {
      return keys.key(key) + ": the driver recorded no acknowledged write of this key";
    }
    final ResultTable table = response.results().get(0);
    if (!table.advanceRow()) {
      return keys.key(key) + ": no row, expected the value of write " + describe(candidates);
    }
    final byte[] value = table.getBytes(0);
    final long seq = ValueFactory.sequenceOf(value);
    for (long candidate : candidates) {
      if (candidate == seq && values.isValueOf(value, candidate)) {
        return null;
      }
    }
    return keys.key(key) + ": holds " + (value == null ? "NULL" : value.length + " bytes of write " + seq)
        + ", expected the value of write " + describe(candidates);
  }

  private static String describe(long[] candidates) {
    if (candidates == null) {
      return "(none recorded)";
    }
    final StringBuilder s = new StringBuilder();
    for (int i = 0; i < candidates.length; i++) {
      s.append(i == 0 ? "" : " or ").append(candidates[i]);
    }
    return s.toString();
  }
}
