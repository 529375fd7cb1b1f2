package org.partita.server.compiler;

import java.util.List;
import org.partita.server.planner.PlannedStatement;

/**
 * A planned statement and the positions of its plans in the engine catalog's
 * statement list: {@code planId} for the main (or coordinator) plan, one id
 * per fragment.
 */
public record CompiledStatement(String name, PlannedStatement planned, int planId, List<Integer> fragmentIds) {
  public CompiledStatement {
    fragmentIds = List.copyOf(fragmentIds);
  }
}
