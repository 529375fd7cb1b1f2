package org.partita.server.http;

import org.partita.server.txn.Invocation;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.partita.client.ClientResponse;
import org.partita.server.dispatch.Dispatcher;
import org.partita.server.dispatch.ResponseHandler;

/**
 * A Dispatcher for tests: records every accepted call, refuses the first
 * {@link #refuse(int)} offers (backpressure), and answers with {@link #answer}
 * on {@link #answerOn} (inline by default). Thread-safe.
 */
final class FakeDispatcher implements Dispatcher {
  /** One accepted call. */
  record Call(String procedure, Object[] parameters) {}

  final List<Call> calls = new CopyOnWriteArrayList<>();
  final AtomicInteger offers = new AtomicInteger();
  private final AtomicInteger refusalsLeft = new AtomicInteger();
  volatile Function<Call, ClientResponse> answer = call -> ClientResponse.success(List.of());
  volatile Executor answerOn = Runnable::run;

  /** Refuses the next {@code times} offers. */
  void refuse(int times) {
    refusalsLeft.set(times);
  }

  @Override
  public boolean dispatch(Invocation invocation, ResponseHandler handler) {
    offers.incrementAndGet();
    if (refusalsLeft.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
      return false;
    }
    final Call call = new Call(invocation.procedure(), invocation.parameters());
    calls.add(call);
    answerOn.execute(() -> handler.onResponse(answer.apply(call)));
    return true;
  }

  /** The only accepted call. */
  Call onlyCall() {
    if (calls.size() != 1) {
      throw new AssertionError("expected one call, got " + calls.size());
    }
    return calls.get(0);
  }
}
