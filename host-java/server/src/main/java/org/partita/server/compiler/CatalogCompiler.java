package org.partita.server.compiler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.create.index.CreateIndex;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.view.CreateView;
import org.partita.proto.Catalog;
import org.partita.server.catalog.Schema;
import org.partita.server.compiler.ddl.CreateProcedureAs;
import org.partita.server.compiler.ddl.CreateProcedureFromClass;
import org.partita.server.compiler.ddl.CreateRole;
import org.partita.server.compiler.ddl.GrantExecute;
import org.partita.server.compiler.ddl.Identifier;
import org.partita.server.compiler.ddl.DdlException;
import org.partita.server.compiler.ddl.DropObject;
import org.partita.server.compiler.ddl.PartitaStatement;
import org.partita.server.compiler.ddl.PartitaStatementParser;
import org.partita.server.compiler.ddl.PartitionTable;
import org.partita.server.compiler.ddl.ProcedurePartitioning;
import org.partita.server.compiler.ddl.ScriptSplitter;
import org.partita.server.compiler.ddl.ScriptStatement;
import org.partita.server.planner.PlanningException;
import org.partita.server.planner.SqlPlanner;
import org.partita.server.planner.SqlSyntaxException;
import org.partita.server.security.Role;

/**
 * Compiles DDL scripts (docs/ddl.md) into a {@link CompiledCatalog}: tables,
 * indexes, views, partitioning and procedures, every statement planned.
 * All or nothing: an error names the file, line and column and leaves no
 * partial result. Not thread-safe.
 */
public final class CatalogCompiler {
  private final ClassLoader loader;

  public CatalogCompiler(ClassLoader loader) {
    this.loader = loader;
  }

  public CompiledCatalog compile(List<SourceFile> files) throws DdlException {
    return compile(new Schema(), new ArrayList<>(), new RoleEditor(RoleEditor.builtIns()), files);
  }

  /** Applies more DDL to an existing catalog (a schema change). */
  public CompiledCatalog apply(CompiledCatalog base, SourceFile file) throws DdlException {
    return compile(base.schema().copy(), new ArrayList<>(base.declarations()), new RoleEditor(base.roles()),
        List.of(file));
  }

  private CompiledCatalog compile(Schema schema, List<ProcedureDeclaration> declarations, RoleEditor roles,
      List<SourceFile> files) throws DdlException {
    final SchemaEditor editor = new SchemaEditor(schema);
    ScriptStatement last = null;
    for (SourceFile file : files) {
      for (ScriptStatement statement : ScriptSplitter.split(file.name(), file.text())) {
        last = statement;
        apply(statement, schema, editor, declarations, roles);
      }
    }
    try {
      editor.checkSchema();
    } catch (PlanningException e) {
      throw new DdlException(last == null ? new org.partita.server.compiler.ddl.SourcePosition("", 1, 1)
          : last.start(), e.getMessage());
    }
    return link(schema, declarations, roles.roles());
  }

  private void apply(ScriptStatement statement, Schema schema, SchemaEditor editor,
      List<ProcedureDeclaration> declarations, RoleEditor roles) throws DdlException {
    final Optional<PartitaStatement> ours = PartitaStatementParser.parse(statement);
    try {
      if (ours.isPresent()) {
        applyPartita(ours.get(), editor, declarations, roles);
      } else {
        applySql(statement, schema, editor);
      }
    } catch (SqlSyntaxException e) {
      throw new DdlException(statement.positionOf(e.line(), e.column()), e.getMessage(), e.token());
    } catch (PlanningException e) {
      throw new DdlException(statement.start(), e.getMessage(), firstLine(statement.text()));
    }
  }

  private static String firstLine(String text) {
    final String trimmed = text.strip();
    final int newline = trimmed.indexOf('\n');
    return newline < 0 ? trimmed : trimmed.substring(0, newline);
  }

  private static void applyPartita(PartitaStatement statement, SchemaEditor editor,
      List<ProcedureDeclaration> declarations, RoleEditor roles) throws PlanningException {
    if (statement instanceof CreateRole r) {
      roles.create(r.name().name(), r.permissions().stream().map(Identifier::name).toList());
    } else if (statement instanceof GrantExecute g) {
      final String procedure = declarations.stream().map(ProcedureDeclaration::name)
          .filter(n -> n.equalsIgnoreCase(g.procedure().name())).findFirst()
          .orElseThrow(() -> new PlanningException("procedure " + g.procedure().name() + " does not exist"));
      roles.grant(g.grant(), procedure, g.roles().stream().map(Identifier::name).toList());
    } else if (statement instanceof DropObject d && d.kind() == DropObject.Kind.ROLE) {
      roles.drop(d.name().name(), d.ifExists());
    } else if (statement instanceof PartitionTable p) {
      editor.partitionTable(p.table().name(), p.column().name());
    } else if (statement instanceof CreateProcedureFromClass c) {
      addDeclaration(declarations, declaration(c.procedureName(), c.className().name(), null,
          c.partitioning(), c.position()));
    } else if (statement instanceof CreateProcedureAs a) {
      addDeclaration(declarations, declaration(a.name().name(), null, a.sql(), a.partitioning(), a.position()));
    } else if (statement instanceof DropObject d) {
      if (d.kind() == DropObject.Kind.PROCEDURE) {
        final boolean removed = declarations.removeIf(p -> p.name().equalsIgnoreCase(d.name().name()));
        if (!removed && !d.ifExists()) {
          throw new PlanningException("procedure " + d.name().name() + " does not exist");
        }
        roles.forgetProcedure(d.name().name());
      } else {
        editor.drop(d.kind(), d.name().name(), d.ifExists());
      }
    }
  }

  private static ProcedureDeclaration declaration(String name, String className, String sql,
      Optional<ProcedurePartitioning> partitioning, org.partita.server.compiler.ddl.SourcePosition position) {
    return partitioning
        .map(p -> new ProcedureDeclaration(name, className, sql, p.table().name(), p.column().name(),
            p.parameterIndex(), position))
        .orElseGet(() -> new ProcedureDeclaration(name, className, sql, null, null, 0, position));
  }

  private static void addDeclaration(List<ProcedureDeclaration> declarations, ProcedureDeclaration d)
      throws PlanningException {
    for (ProcedureDeclaration existing : declarations) {
      if (existing.name().equalsIgnoreCase(d.name())) {
        throw new PlanningException("procedure " + d.name() + " is already defined (at " + existing.position() + ")");
      }
    }
    declarations.add(d);
  }

  private static void applySql(ScriptStatement statement, Schema schema, SchemaEditor editor)
      throws PlanningException {
    final SchemaEditor.IndexText index = SchemaEditor.splitUsing(statement.text());
    final Statement parsed = SqlPlanner.parse(index.sql());
    if (parsed instanceof CreateTable create) {
      editor.createTable(create);
    } else if (parsed instanceof CreateIndex create) {
      editor.createIndex(create, index.kind());
    } else if (parsed instanceof CreateView create) {
      if (create.isOrReplace()) {
        throw new PlanningException("CREATE OR REPLACE VIEW is not supported; DROP VIEW then CREATE VIEW");
      }
      if (QueryViewCompiler.isQueryView(create)) {
        schema.putQueryView(QueryViewCompiler.compile(schema, create));
      } else {
        schema.put(ViewCompiler.compile(schema, create, statement.text().strip()));
      }
    } else {
      throw new PlanningException("a schema holds DDL only (CREATE/DROP TABLE, INDEX, VIEW, PROCEDURE, ROLE,"
          + " PARTITION TABLE, GRANT and REVOKE); found: " + firstLine(statement.text()));
    }
  }

  /** Plans every procedure and assigns engine statement ids. */
  private CompiledCatalog link(Schema schema, List<ProcedureDeclaration> declarations, Map<String, Role> roles)
      throws DdlException {
    final ProcedureCompiler compiler = new ProcedureCompiler(schema, loader);
    final Catalog.Builder catalog = Catalog.newBuilder().setFormatVersion(1);
    schema.tables().forEach(t -> catalog.addTables(t.toProto()));
    final Map<String, CompiledProcedure> procedures = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (ProcedureDeclaration d : declarations) {
      final ProcedureCompiler.Checked checked;
      try {
        checked = compiler.compile(d);
      } catch (PlanningException e) {
        throw new DdlException(d.position(), e.getMessage());
      }
      procedures.put(d.name(), EngineStatements.register(checked, catalog));
    }
    return new CompiledCatalog(schema, java.util.Collections.unmodifiableMap(procedures), List.copyOf(declarations),
        catalog.build(), loader, roles);
  }
}
