package org.partita.fault;

import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.client.PartitaClient;

/**
 * bank (workloads/bank.sql): {@link #ACCOUNTS} accounts of
 * {@link #INITIAL_BALANCE} each, spread over the partitions by their ids;
 * half the operations move 1–{@link #MAX_AMOUNT} between two accounts in a
 * multi-partition transfer, half read every balance in one transaction. A
 * transfer's write id is its transfer id. Thread-safe.
 */
final class BankWorkload implements Workload {
  static final int ACCOUNTS = 8;
  static final long INITIAL_BALANCE = 100;
  static final int MAX_AMOUNT = 20;

  private final AtomicLong transfers = new AtomicLong(1);

  @Override
  public String name() {
    return "bank";
  }

  @Override
  public String schemaFile() {
    return "bank.sql";
  }

  @Override
  public void setup(PartitaClient client) {
    for (int account = 0; account < ACCOUNTS; account++) {
      client.call("@AdHoc", "INSERT INTO accounts (id, balance) VALUES (" + account + ", " + INITIAL_BALANCE + ")");
    }
  }

  @Override
  public Operation next(Random random, long elapsedNanos) {
    if (random.nextBoolean()) {
      return read();
    }
    final long from = random.nextInt(ACCOUNTS);
    final long to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
    final long amount = 1 + random.nextInt(MAX_AMOUNT);
    final long id = transfers.getAndIncrement();
    final String value = "{\"from\":" + from + ",\"to\":" + to + ",\"amount\":" + amount + "}";
    return new Operation("transfer", null, value, "BankTransfer", new Object[] {id, from, to, amount},
        r -> value, id, false);
  }

  @Override
  public List<Operation> finalReads() {
    return List.of(read());
  }

  @Override
  public List<Query> auditQueries() {
    return Query.adHoc("SELECT id FROM transfers");
  }

  @Override
  public List<Query> stateQueries() {
    return Query.adHoc("SELECT id, balance FROM accounts ORDER BY id",
        "SELECT id, from_id, to_id, amount FROM transfers ORDER BY id");
  }

  @Override
  public String multiPartitionReason() {
    return "its transfers move money between partitions and its reads read every account in one transaction";
  }

  @Override
  public List<String> checkerArguments() {
    return List.of("--total", Long.toString(ACCOUNTS * INITIAL_BALANCE));
  }

  private static Operation read() {
    return Operation.read("read", null, "BankRead", new Object[0], Results::keyedValues);
  }
}
