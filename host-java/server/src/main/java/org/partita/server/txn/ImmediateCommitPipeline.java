package org.partita.server.txn;

import java.util.function.Consumer;
import org.partita.client.ClientResponse;

/**
 * The commit pipeline of a host with no command log and no replicas: an
 * item needs nothing between running and answering, so every answer leaves
 * at once. Stateless; one instance serves every partition.
 */
public final class ImmediateCommitPipeline implements CommitPipeline {
  public static final ImmediateCommitPipeline INSTANCE = new ImmediateCommitPipeline();

  private ImmediateCommitPipeline() {}

  @Override
  public void sequenced(TxnHeader header, SequencedItem item) {
    // Nothing to log or replicate.
  }

  @Override
  public void release(TxnHeader header, SequencedItem item, Runnable answer) {
    answer.run();
  }

  @Override
  public void release(TxnHeader header, SequencedItem item, long writeHash, Runnable answer) {
    answer.run();
  }

  /** Answers at once, without wrapping the answer in a Runnable (the default would make one per call). */
  @Override
  public void release(TxnHeader header, SequencedItem item, long writeHash, ClientResponse response,
      Consumer<ClientResponse> done) {
    done.accept(response);
  }
}
