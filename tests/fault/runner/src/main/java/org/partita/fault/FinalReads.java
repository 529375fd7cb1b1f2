package org.partita.fault;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.TreeSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/**
 * What the runner reads after the faults are healed, from one host: the
 * workload's final reads (recorded in the history with {@code final: true}
 * and the host), the ids of the writes that took effect (the audit), and a
 * SHA-256 of the whole state (the workload's state queries) for comparing
 * copies. Each read is retried for up to {@link #RETRY_SECONDS} s until it
 * succeeds; only the attempt that succeeded is recorded (a failed read
 * changes nothing). Used by the main thread only.
 */
final class FinalReads {
  static final long RETRY_SECONDS = 60;
  /** Final reads use process numbers from here, apart from the workers'. */
  static final int FINAL_PROCESS = 1_000_000;

  private final Workload workload;
  private final History history;

  FinalReads(Workload workload, History history) {
    this.workload = workload;
    this.history = history;
  }

  /** Records every final read made through {@code client} as coming from {@code host}. */
  void record(PartitaClient client, String host, int process) throws InterruptedException {
    for (Operation read : workload.finalReads()) {
      final long invoked = history.now();
      final List<Query> parts = workload.unionOf(read);
      final String value;
      if (parts == null) {
        value = read.result().apply(callUntilOk(client, read.procedure(), read.parameters()));
      } else {
        final Set<Long> union = new TreeSet<>();
        for (Query part : parts) {
          union.addAll(firstColumn(callUntilOk(client, part.procedure(), part.parameters())));
        }
        value = Json.array(union.stream().map(String::valueOf).toList());
      }
      history.finalRead(process, read.f(), read.key(), host, invoked, value);
    }
  }

  private static List<Long> firstColumn(ClientResponse response) {
    final ResultTable table = response.results().get(0);
    final List<Long> values = new ArrayList<>();
    while (table.advanceRow()) {
      values.add(table.getLong(0));
    }
    return values;
  }

  /** The write ids the audit queries find. */
  Set<Long> applied(PartitaClient client) throws InterruptedException {
    final Set<Long> ids = new HashSet<>();
    for (Query query : workload.auditQueries()) {
      final ResultTable table = callUntilOk(client, query.procedure(), query.parameters()).results().get(0);
      while (table.advanceRow()) {
        ids.add(table.getLong(0));
      }
    }
    return ids;
  }

  /** SHA-256 (hex) of every row of every state query, in order. */
  String stateChecksum(PartitaClient client) throws InterruptedException {
    try {
      final MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (Query query : workload.stateQueries()) {
        digest.update((query.describe() + "\n").getBytes(StandardCharsets.UTF_8));
        digest.update(Results.rows(callUntilOk(client, query.procedure(), query.parameters()))
            .getBytes(StandardCharsets.UTF_8));
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in this JVM", e);
    }
  }

  /** Calls until an answer is SUCCESS; throws after {@link #RETRY_SECONDS} s naming the last error. */
  static ClientResponse callUntilOk(PartitaClient client, String procedure, Object... parameters)
      throws InterruptedException {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RETRY_SECONDS);
    String last = "no attempt";
    while (System.nanoTime() < deadline) {
      try {
        final ClientResponse response = client.callAsync(Worker.CALL_TIMEOUT.multipliedBy(5), procedure,
            parameters).get();
        if (response.ok()) {
          return response;
        }
        last = response.toString();
      } catch (java.util.concurrent.ExecutionException | RuntimeException e) {
        last = Outcomes.describe(e);
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    throw new IllegalStateException(procedure + " did not succeed within " + RETRY_SECONDS + " s: " + last);
  }
}
