package org.partita.server.txn;

/**
 * The seam between sequencing a transaction and answering it: where the
 * command log and replication plug in (docs/database.md, "A transaction's
 * life"). An initiator calls {@link #sequenced} once per item, in sequence
 * order, before its site runs it (a log appends it there; a leader sends it
 * to its replicas), and hands every answer to {@link #release} once the
 * site has run the item (a sync log releases it when its record is on disk;
 * a leader when every replica has run it with the same write hash).
 *
 * <p>Called on the partition's site thread; implementations must not block
 * it. {@link ImmediateCommitPipeline} is the one-host, no-log implementation.
 */
public interface CommitPipeline {
  /** {@code item} was given {@code header} and is about to run. */
  void sequenced(TxnHeader header, SequencedItem item);

  /**
   * {@code item} has run; {@code answer} sends its response to the caller
   * and must be run exactly once, on any thread, when the response may be
   * seen.
   */
  void release(TxnHeader header, SequencedItem item, Runnable answer);

  /**
   * As {@link #release(TxnHeader, SequencedItem, Runnable)}, with the
   * transaction's write hash as it ended ({@code PartitionEngine.writeHash}
   * of its last batch when it committed; 0 when it wrote nothing or rolled
   * back): what a leader's replicas must match (docs/cluster.md, "Data
   * plane"). Sites call this form for single-partition items; pipelines that
   * do not compare hashes keep the default.
   */
  default void release(TxnHeader header, SequencedItem item, long writeHash, Runnable answer) {
    release(header, item, answer);
  }

  /**
   * As {@link #release(TxnHeader, SequencedItem, long, Runnable)}, with the
   * answer as a response and where it goes: a pipeline that can lose its
   * right to answer (a replicated partition's leader deposed by a failover)
   * keeps {@code done} to tell the caller the outcome is unknown instead
   * (docs/cluster.md, "What a client sees"). The default releases
   * {@code response} as the other form does.
   */
  default void release(TxnHeader header, SequencedItem item, long writeHash,
      org.partita.client.ClientResponse response, java.util.function.Consumer<org.partita.client.ClientResponse> done) {
    release(header, item, writeHash, () -> done.accept(response));
  }

  /**
   * The prepare step of a multi-partition transaction's part
   * (docs/cluster.md, "When a host dies mid-transaction"): {@code part},
   * sequenced as {@code header} and not committed, goes to every other copy
   * of the partition as prepared; {@code prepared} runs once every copy
   * holds it, or {@code lost} hears why it never will (this copy lost the
   * partition's leadership). Exactly one of them runs, on any thread.
   * Pipelines without other copies keep the default: prepared at once.
   */
  default void prepare(TxnHeader header, SequencedItem part, long writeHash, Runnable prepared,
      java.util.function.Consumer<org.partita.client.ClientResponse> lost) {
    prepared.run();
  }

  /**
   * The outcome of a part {@link #prepare}d just before, as an item of its
   * own ({@code header}, the next of the partition's order): every copy
   * commits or rolls back the part there. {@code answer} runs once every
   * copy did. Not logged (the part's join is). The default releases it as
   * any item.
   */
  default void decide(TxnHeader header, SequencedItem decision, long writeHash, Runnable answer) {
    release(header, decision, writeHash, answer);
  }

  /**
   * The partition's cut of a snapshot across hosts ({@code mark}, sequenced
   * as {@code header} between two transactions; docs/durability.md, "On a
   * cluster"): it travels whole to every other copy of the partition, which
   * fixes its own snapshot there. {@code answer} runs once every copy did.
   * Not logged. The default releases it as any item that wrote nothing.
   */
  default void cutSnapshot(TxnHeader header, SequencedItem mark, Runnable answer) {
    release(header, mark, 0, answer);
  }

  /**
   * The site ran every item it had queued, or is about to wait (a
   * multi-partition transaction's mailbox): whatever this pipeline holds
   * back to hand on in bigger batches (a leader's items for its replicas)
   * must go now. Called on the site thread; must not block. Pipelines that
   * hand every item on at once keep the default.
   */
  default void siteIdle() {}

  /**
   * The transaction of {@code header}, sequenced before, was rolled back
   * because of its time limit or a cancel: an outcome that depends on time,
   * so a log records it for replay to skip the transaction. Called on the
   * thread that ran it (a site, or the multi-partition coordinator for
   * partition 65535) before its answer is released and before anything
   * else of its partitions is sequenced. Implementations must not block.
   */
  default void aborted(TxnHeader header) {}

  /**
   * Whether released items travel to other copies of the partition (a
   * replicated leader): a multi-partition transaction's part then records
   * the engine batches it ran, which its replicas run again. Any thread.
   */
  default boolean replicatesWork() {
    return false;
  }

  /**
   * Why new transactions must not be sequenced now (a command log whose
   * disk is full), or null when they may. Sites and the multi-partition
   * coordinator ask before sequencing a new item and refuse it with this
   * reason; an item sequenced anyway (the answer changed in between) is
   * still handled, in room the pipeline keeps for it. Any thread; as cheap
   * as a volatile read.
   */
  default String refusal() {
    return null;
  }

  /**
   * The error code a transaction refused with {@link #refusal} is answered
   * with: DISK_FULL for a command log whose disk is full (the default),
   * SERVER_BUSY while a snapshot restore holds new transactions back. Any
   * thread.
   */
  default org.partita.proto.ErrorCode refusalCode() {
    return org.partita.proto.ErrorCode.ERROR_CODE_DISK_FULL;
  }
}
