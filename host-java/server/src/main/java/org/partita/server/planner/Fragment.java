package org.partita.server.planner;

import org.partita.proto.PlanNode;

/**
 * A plan that runs on every partition; its result tables (one per partition)
 * reach the coordinator fragment's RECEIVE nodes with {@code dependencyId}.
 */
public record Fragment(PlanNode plan, int dependencyId) {}
