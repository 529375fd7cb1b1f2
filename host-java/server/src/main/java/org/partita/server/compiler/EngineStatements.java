package org.partita.server.compiler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.partita.proto.Catalog;
import org.partita.proto.PlanNode;
import org.partita.proto.Statement;
import org.partita.server.planner.Fragment;
import org.partita.server.planner.PlannedStatement;

/** Adds a procedure's plans to the engine catalog's statement list and records their ids. */
final class EngineStatements {
  private EngineStatements() {}

  static CompiledProcedure register(ProcedureCompiler.Checked checked, Catalog.Builder catalog) {
    final Map<String, CompiledStatement> statements = new LinkedHashMap<>();
    final String procedure = checked.declaration().name();
    for (ProcedureCompiler.Planned p : checked.statements()) {
      final PlannedStatement planned = p.statement();
      final String name = procedure + "." + p.name();
      final int planId = add(catalog, name, planned.plan(), planned);
      final List<Integer> fragmentIds = new ArrayList<>();
      for (Fragment f : planned.fragments()) {
        fragmentIds.add(add(catalog, name + "#" + f.dependencyId(), f.plan(), planned));
      }
      statements.put(p.name(), new CompiledStatement(name, planned, planId, fragmentIds));
    }
    return new CompiledProcedure(procedure, checked.partition(), checked.type(), checked.run(), statements,
        checked.parameterTypes());
  }

  private static int add(Catalog.Builder catalog, String name, PlanNode plan, PlannedStatement planned) {
    catalog.addStatements(toProto(name, plan, planned));
    return catalog.getStatementsCount() - 1;
  }

  /** The engine form of one plan of a statement. */
  static Statement toProto(String name, PlanNode plan, PlannedStatement planned) {
    return Statement.newBuilder()
        .setName(name)
        .setSql(planned.sql())
        .setPlan(plan)
        .addAllParameterTypes(planned.parameterTypes())
        .setReadOnly(planned.readOnly())
        .build();
  }
}
