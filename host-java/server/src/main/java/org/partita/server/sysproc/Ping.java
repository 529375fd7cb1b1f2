package org.partita.server.sysproc;

import java.time.Instant;
import java.util.function.Supplier;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.dispatch.ResponseHandler;

/** {@code @Ping}: answers at once with one row (RESPONSE 'pong', HOST_ID, SERVER_TIME); checks the server is up. */
final class Ping implements SystemProcedure {
  private final Supplier<ServerIdentity> identity;

  Ping(Supplier<ServerIdentity> identity) {
    this.identity = identity;
  }

  @Override
  public String name() {
    return "@Ping";
  }

  @Override
  public boolean call(Parameters parameters, ResponseHandler handler) {
    parameters.requireCount(0, 0, "()");
    handler.onResponse(Answers.table(new ResultTableBuilder()
        .column("RESPONSE", ValueType.VARCHAR)
        .column("HOST_ID", ValueType.INTEGER)
        .column("SERVER_TIME", ValueType.TIMESTAMP)
        .row("pong", identity.get().hostId(), Instant.now())
        .build()));
    return true;
  }
}
