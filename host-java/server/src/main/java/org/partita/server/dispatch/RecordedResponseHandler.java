package org.partita.server.dispatch;

import org.partita.client.ClientResponse;

/**
 * A {@link ResponseHandler} that carries what its dispatcher records when
 * the call is answered (the procedure's name and when it was dispatched),
 * so that the dispatcher hands the handler on as it is instead of wrapping
 * it in a new handler per call. The dispatcher calls {@link #recordWith}
 * before it passes the handler on; {@link #onResponse} then calls the
 * recorder, then {@link #answered}. A handler never given to a recording
 * dispatcher (or answered before it was) only answers.
 *
 * <p>Thread model: {@link #recordWith} happens before the call is handed
 * on (the hand-off publishes it); {@link #onResponse} runs once, on any
 * thread. A handler dispatched again (a retry after backpressure) is
 * recorded again: the last dispatch counts.
 */
public abstract class RecordedResponseHandler implements ResponseHandler {
  /** Records one answered call. Any thread; must not block. */
  @FunctionalInterface
  public interface Recorder {
    void record(String procedure, ClientResponse response, long nanosSinceDispatch);
  }

  private Recorder recorder;
  private String procedure;
  private long dispatchedNanos;

  /** Has {@code recorder} record this call, of {@code procedure}, dispatched at {@code nanoTime}. */
  public final void recordWith(Recorder recorder, String procedure, long nanoTime) {
    this.recorder = recorder;
    this.procedure = procedure;
    this.dispatchedNanos = nanoTime;
  }

  @Override
  public final void onResponse(ClientResponse response) {
    if (recorder != null) {
      recorder.record(procedure, response, System.nanoTime() - dispatchedNanos);
    }
    answered(response);
  }

  /** The call's answer, after it was recorded. Called once, on any thread; must not block. */
  protected abstract void answered(ClientResponse response);
}
