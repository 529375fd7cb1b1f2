package org.partita.server.sysproc;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.partita.client.ClientResponse;
import org.partita.proto.TableStatsList;
import org.partita.server.database.Database;
import org.partita.server.dispatch.ResponseHandler;

/**
 * Asks every partition for its table figures ({@link Database#offerTableStats()},
 * read on the site threads) and answers with a table built from them.
 */
final class EngineTableStats {
  private EngineTableStats() {}

  /**
   * Answers {@code handler} with {@code build} applied to every partition's
   * figures, on the site thread that finishes last. Returns false, and
   * answers nothing, when a partition's queue is full (callers must not
   * block).
   */
  static boolean offer(Database database, String procedure, Function<List<TableStatsList>, ClientResponse> build,
      ResponseHandler handler) {
    final CompletableFuture<List<TableStatsList>> figures = database.offerTableStats();
    if (figures == null) {
      return false;
    }
    figures.whenComplete((lists, failure) -> {
      ClientResponse response;
      try {
        response = failure != null ? Answers.unexpected(procedure, failure) : build.apply(lists);
      } catch (RuntimeException e) {
        response = Answers.unexpected(procedure, e);
      }
      handler.onResponse(response);
    });
    return true;
  }
}
