package org.partita.server.sysproc;

import org.partita.server.error.ServerException;
import org.partita.server.dispatch.ResponseHandler;

/**
 * {@code @Statistics(selector [, interval])}: one table of server figures.
 * {@code interval} 1 asks for the figures since the previous interval read of
 * the same selector (and starts a new interval); 0, the default, for those
 * since the server started. An unknown selector is REJECTED BAD_PARAMETER
 * listing the valid ones.
 */
final class Statistics implements SystemProcedure {
  private final Choices<StatisticsSelector> selectors;

  Statistics(Choices<StatisticsSelector> selectors) {
    this.selectors = selectors;
  }

  @Override
  public String name() {
    return "@Statistics";
  }

  @Override
  public boolean call(Parameters parameters, ResponseHandler handler) {
    parameters.requireCount(1, 2, "(selector [, interval])");
    final String name = parameters.text(0, "selector");
    final boolean interval = parameters.flag(1, "interval", false);
    final StatisticsSelector selector = selectors.find(name);
    if (selector == null) {
      throw ServerException.badParameter("@Statistics: unknown selector " + name + "; selectors: " + selectors.names());
    }
    return selector.answer(interval, handler);
  }
}
