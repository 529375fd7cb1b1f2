package org.partita.server.compiler;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.partita.client.ResultTable;
import org.partita.proto.ValueType;
import org.partita.server.catalog.Schema;
import org.partita.server.catalog.TableDef;
import org.partita.server.planner.PlannedStatement;
import org.partita.server.planner.PlanningException;
import org.partita.server.planner.SqlPlanner;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * Checks and plans procedures: a class must extend {@link Procedure}, have a
 * public no-argument constructor and exactly one public {@code run} method
 * whose parameter and return types are supported; every SqlStmt field is
 * planned, and in a single-partition procedure each must run on one
 * partition.
 */
final class ProcedureCompiler {
  static final Set<Class<?>> PARAMETER_TYPES = Set.of(long.class, Long.class, int.class, Integer.class, short.class,
      Short.class, byte.class, Byte.class, double.class, Double.class, String.class, BigDecimal.class, byte[].class,
      java.time.Instant.class);
  static final Set<Class<?>> RETURN_TYPES = Set.of(long.class, Long.class, void.class, ResultTable.class,
      ResultTable[].class);

  /** A planned statement before engine ids are assigned. */
  record Planned(String name, PlannedStatement statement) {}

  /** A procedure before engine ids are assigned. */
  record Checked(ProcedureDeclaration declaration, ProcedurePartition partition, Class<? extends Procedure> type,
                 Method run, List<Planned> statements, List<Class<?>> parameterTypes) {}

  private final Schema schema;
  private final ClassLoader loader;

  ProcedureCompiler(Schema schema, ClassLoader loader) {
    this.schema = schema;
    this.loader = loader;
  }

  Checked compile(ProcedureDeclaration d) throws PlanningException {
    final ProcedurePartition partition = partitionOf(d);
    if (d.sql() != null) {
      return compileSql(d, partition);
    }
    return compileClass(d, partition);
  }

  private ProcedurePartition partitionOf(ProcedureDeclaration d) throws PlanningException {
    if (d.partitionTable() == null) {
      return null;
    }
    final TableDef table = schema.table(d.partitionTable()).orElseThrow(() -> new PlanningException(
        "procedure " + d.name() + " is partitioned on unknown table " + d.partitionTable()));
    if (table.isView() || table.isReplicated()) {
      throw new PlanningException("procedure " + d.name() + " is partitioned on " + d.partitionTable()
          + ", which is not a partitioned table; add PARTITION TABLE " + d.partitionTable() + " ON COLUMN ...");
    }
    final String column = table.columns().get(table.partitionColumn()).name();
    if (!column.equals(d.partitionColumn())) {
      throw new PlanningException("procedure " + d.name() + " is partitioned on " + d.partitionTable() + "."
          + d.partitionColumn() + ", but the table is partitioned on " + column);
    }
    return new ProcedurePartition(table.name(), column, table.columns().get(table.partitionColumn()).type(),
        d.parameterIndex());
  }

  private Checked compileSql(ProcedureDeclaration d, ProcedurePartition partition) throws PlanningException {
    final PlannedStatement planned = plan(d, CompiledProcedure.SQL_STATEMENT, d.sql(), partition != null);
    final List<Class<?>> types = new ArrayList<>();
    for (ValueType t : planned.parameterTypes()) {
      types.add(javaTypeOf(t));
    }
    if (partition != null && partition.parameterIndex() >= types.size()) {
      throw new PlanningException("procedure " + d.name() + " is partitioned on parameter " + partition.parameterIndex()
          + " but its statement has " + types.size() + " parameter(s)");
    }
    return new Checked(d, partition, null, null, List.of(new Planned(CompiledProcedure.SQL_STATEMENT, planned)),
        types);
  }

  private static Class<?> javaTypeOf(ValueType t) {
    return switch (t) {
      case VALUE_TYPE_FLOAT -> Double.class;
      case VALUE_TYPE_DECIMAL -> BigDecimal.class;
      case VALUE_TYPE_VARCHAR -> String.class;
      case VALUE_TYPE_VARBINARY -> byte[].class;
      case VALUE_TYPE_TIMESTAMP -> java.time.Instant.class;
      default -> Long.class;
    };
  }

  private PlannedStatement plan(ProcedureDeclaration d, String field, String sql, boolean singlePartition)
      throws PlanningException {
    final String nondeterministic = org.partita.server.planner.Determinism.problem(sql);
    if (nondeterministic != null) {
      java.util.logging.Logger.getLogger(ProcedureCompiler.class.getName()).warning("procedure " + d.name()
          + ", statement " + field + " (" + d.position() + "): " + nondeterministic
          + "; add an ORDER BY over a unique key so that every replica reads the same rows");
    }
    try {
      return new SqlPlanner(schema).plan(sql, singlePartition);
    } catch (PlanningException e) {
      throw new PlanningException("procedure " + d.name() + ", statement " + field + ": " + e.getMessage(), e);
    }
  }

  private Checked compileClass(ProcedureDeclaration d, ProcedurePartition partition) throws PlanningException {
    final Class<? extends Procedure> type = loadClass(d);
    final Method run = runMethod(type, d);
    final List<Class<?>> parameters = List.of(run.getParameterTypes());
    if (partition != null && partition.parameterIndex() >= parameters.size()) {
      throw new PlanningException("procedure " + d.name() + " is partitioned on parameter " + partition.parameterIndex()
          + " but run() has " + parameters.size() + " parameter(s)");
    }
    final List<Planned> statements = new ArrayList<>();
    for (Map.Entry<String, SqlStmt> field : statementFields(type, d).entrySet()) {
      statements.add(new Planned(field.getKey(), plan(d, field.getKey(), field.getValue().sql(), partition != null)));
    }
    return new Checked(d, partition, type, run, statements, parameters);
  }

  private Class<? extends Procedure> loadClass(ProcedureDeclaration d) throws PlanningException {
    final Class<?> raw;
    try {
      raw = Class.forName(d.className(), false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new PlanningException("procedure class " + d.className() + " not found on the class path (" + e + ")");
    }
    if (!Procedure.class.isAssignableFrom(raw)) {
      throw new PlanningException("procedure class " + d.className() + " does not extend " + Procedure.class.getName());
    }
    if (!Modifier.isPublic(raw.getModifiers())) {
      throw new PlanningException("procedure class " + d.className() + " must be public");
    }
    if (Modifier.isAbstract(raw.getModifiers())) {
      throw new PlanningException("procedure class " + d.className() + " is abstract");
    }
    return raw.asSubclass(Procedure.class);
  }

  private static Method runMethod(Class<?> type, ProcedureDeclaration d) throws PlanningException {
    Method run = null;
    for (Method m : type.getMethods()) {
      if (m.getName().equals("run") && !m.isBridge()) {
        if (run != null) {
          throw new PlanningException("procedure class " + d.className() + " has more than one run method");
        }
        run = m;
      }
    }
    if (run == null) {
      throw new PlanningException("procedure class " + d.className() + " has no public run method");
    }
    if (!RETURN_TYPES.contains(run.getReturnType())) {
      throw new PlanningException("procedure " + d.className() + ".run returns " + run.getReturnType().getSimpleName()
          + "; it must return long, ResultTable, ResultTable[] or void");
    }
    final Class<?>[] params = run.getParameterTypes();
    for (int i = 0; i < params.length; i++) {
      if (!PARAMETER_TYPES.contains(params[i])) {
        throw new PlanningException("procedure " + d.className() + ".run parameter " + i + " has unsupported type "
            + params[i].getSimpleName() + " (supported: long, int, short, byte and their boxes, double, String,"
            + " BigDecimal, byte[], Instant)");
      }
    }
    return run;
  }

  /** The SqlStmt fields of a procedure class, read from a fresh instance, by name. */
  static Map<String, SqlStmt> statementFields(Class<? extends Procedure> type, ProcedureDeclaration d)
      throws PlanningException {
    final Procedure instance = instantiate(type, d.className());
    final Map<String, SqlStmt> fields;
    try {
      fields = ProcedureDeclarationsAccess.statementFields(type, instance);
    } catch (RuntimeException e) {
      throw new PlanningException("procedure " + d.className() + ": cannot read its SqlStmt fields: " + e.getMessage());
    }
    for (Map.Entry<String, SqlStmt> f : fields.entrySet()) {
      if (f.getValue() == null) {
        throw new PlanningException("procedure " + d.className() + ": SqlStmt field " + f.getKey() + " is null");
      }
    }
    return fields;
  }

  static Procedure instantiate(Class<? extends Procedure> type, String className) throws PlanningException {
    try {
      final Constructor<? extends Procedure> constructor = type.getConstructor();
      return constructor.newInstance();
    } catch (NoSuchMethodException e) {
      throw new PlanningException("procedure class " + className + " needs a public constructor without arguments");
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      throw new PlanningException("procedure class " + className + " cannot be instantiated: " + e);
    }
  }
}
