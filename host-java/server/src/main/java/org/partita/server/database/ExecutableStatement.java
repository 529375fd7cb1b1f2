package org.partita.server.database;

import org.partita.server.error.ServerException;
import java.util.ArrayList;
import java.util.List;
import org.partita.server.compiler.CompiledStatement;
import org.partita.server.engine.BatchRequestWriter;
import org.partita.server.planner.Fragment;
import org.partita.server.planner.PlannedStatement;
import org.partita.server.procedure.ParameterBuffer;

/**
 * A planned statement and how to call each of its plans: by catalog id
 * (procedures) or inline as serialized plans (ad-hoc SQL). Immutable.
 *
 * @param subject "statement NAME", built once: error messages name it, and
 *     building it per call was a tenth of the server's allocation
 */
record ExecutableStatement(String name, PlannedStatement planned, int planId, byte[] planBytes,
                           List<Integer> fragmentIds, List<byte[]> fragmentBytes, String subject) {

  ExecutableStatement(String name, PlannedStatement planned, int planId, byte[] planBytes, List<Integer> fragmentIds,
      List<byte[]> fragmentBytes) {
    this(name, planned, planId, planBytes, fragmentIds, fragmentBytes, "statement " + name);
  }

  static ExecutableStatement of(CompiledStatement s) {
    return new ExecutableStatement(s.name(), s.planned(), s.planId(), null, s.fragmentIds(), List.of());
  }

  static ExecutableStatement adHoc(PlannedStatement planned) {
    final List<byte[]> fragments = new ArrayList<>();
    for (Fragment f : planned.fragments()) {
      fragments.add(statementBytes("@AdHoc#" + f.dependencyId(), f.plan(), planned));
    }
    final List<Integer> noIds = new ArrayList<>();
    fragments.forEach(f -> noIds.add(-1));
    return new ExecutableStatement("@AdHoc", planned, -1, statementBytes("@AdHoc", planned.plan(), planned), noIds,
        fragments);
  }

  private static byte[] statementBytes(String name, org.partita.proto.PlanNode plan, PlannedStatement planned) {
    return org.partita.proto.Statement.newBuilder()
        .setName(name)
        .setSql(planned.sql())
        .setPlan(plan)
        .addAllParameterTypes(planned.parameterTypes())
        .setReadOnly(planned.readOnly())
        .build()
        .toByteArray();
  }

  void addPlanCall(BatchRequestWriter writer) {
    if (planBytes != null) {
      writer.addAdHocCall(planBytes);
    } else {
      writer.addCall(planId);
    }
  }

  void addFragmentCall(BatchRequestWriter writer, int i) {
    if (!fragmentBytes.isEmpty()) {
      writer.addAdHocCall(fragmentBytes.get(i));
    } else {
      writer.addCall(fragmentIds.get(i));
    }
  }

  /**
   * Writes the parameters of queued statement {@code statement} of {@code
   * parameters}, converted to the statement's types: a long or double added
   * as such is written without boxing.
   */
  void addParameters(BatchRequestWriter writer, ParameterBuffer parameters, int statement) {
    final List<org.partita.proto.ValueType> types = planned.parameterTypes();
    final int from = parameters.start(statement);
    final int given = parameters.end(statement) - from;
    if (given != types.size()) {
      throw ServerException.badParameter(subject + " takes " + types.size()
          + " parameter(s), " + given + " given");
    }
    for (int i = 0; i < given; i++) {
      final int at = from + i;
      if (parameters.isLong(at)) {
        ParameterConverter.writeLong(writer, parameters.longAt(at), types.get(i), subject, i + 1);
      } else if (parameters.isDouble(at)) {
        ParameterConverter.writeDouble(writer, parameters.doubleAt(at), types.get(i), subject, i + 1);
      } else {
        ParameterConverter.write(writer, parameters.valueAt(at), types.get(i), subject, i + 1);
      }
    }
  }

  /** Writes the parameters of one call, converted to the statement's types. */
  void addParameters(BatchRequestWriter writer, Object[] parameters) {
    final List<org.partita.proto.ValueType> types = planned.parameterTypes();
    final int given = parameters == null ? 0 : parameters.length;
    if (given != types.size()) {
      throw ServerException.badParameter(subject + " takes " + types.size()
          + " parameter(s), " + given + " given");
    }
    for (int i = 0; i < given; i++) {
      ParameterConverter.write(writer, parameters[i], types.get(i), subject, i + 1);
    }
  }
}
