package org.partita.server.compiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.server.compiler.ddl.DdlException;
import org.partita.server.security.Permission;
import org.partita.server.security.Role;

/** CREATE ROLE, DROP ROLE, GRANT and REVOKE in schemas and schema changes (docs/security.md). */
final class RoleDdlTest {
  private static final String TABLE = "CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY);\n"
      + "CREATE PROCEDURE GetT AS SELECT id FROM t WHERE id = ?;\n";
  private final CatalogCompiler compiler = new CatalogCompiler(getClass().getClassLoader());

  private CompiledCatalog compile(String ddl) throws DdlException {
    return compiler.compile(List.of(new SourceFile("s.sql", ddl)));
  }

  private String error(String ddl) {
    return assertThrows(DdlException.class, () -> compile(ddl)).getMessage();
  }

  @Test
  void shouldHaveTheBuiltInRolesInEveryCatalog() throws DdlException {
    final CompiledCatalog c = compile("");
    assertEquals(Role.ADMINISTRATOR, c.roles().get("administrator"));
    assertEquals(Role.USER, c.roles().get("user"));
  }

  @Test
  void shouldCreateRolesAndGrantProcedures() throws DdlException {
    final CompiledCatalog c = compile(TABLE + "CREATE ROLE ops WITH sqlread, ALLPROC;\nCREATE ROLE empty;\n"
        + "GRANT EXECUTE ON PROCEDURE GetT TO ops, user;");
    final Role ops = c.roles().get("ops");
    assertEquals(EnumSet.of(Permission.SQLREAD, Permission.ALLPROC), ops.permissions());
    assertTrue(ops.procedures().contains("gett"));
    assertTrue(c.roles().get("user").procedures().contains("GetT"));
    assertTrue(c.roles().get("empty").permissions().isEmpty());
  }

  @Test
  void shouldRevokeAndDropAtRunTime() throws DdlException {
    final CompiledCatalog base = compile(TABLE + "CREATE ROLE ops; GRANT EXECUTE ON GetT TO ops;");
    final CompiledCatalog revoked = compiler.apply(base, new SourceFile("@AdHoc", "REVOKE EXECUTE ON GetT FROM ops"));
    assertFalse(revoked.roles().get("ops").procedures().contains("GetT"));
    assertTrue(base.roles().get("ops").procedures().contains("GetT"), "the old catalog is unchanged");
    final CompiledCatalog dropped = compiler.apply(revoked, new SourceFile("@AdHoc", "DROP ROLE ops"));
    assertFalse(dropped.roles().containsKey("ops"));
    assertEquals(revoked.roles().get("user"), dropped.roles().get("user"));
  }

  @Test
  void shouldForgetTheGrantsOfADroppedProcedure() throws DdlException {
    final CompiledCatalog c = compile(TABLE + "CREATE ROLE ops; GRANT EXECUTE ON GetT TO ops; DROP PROCEDURE GetT;"
        + "CREATE PROCEDURE GetT AS SELECT id FROM t;");
    assertFalse(c.roles().get("ops").procedures().contains("GetT"));
  }

  @Test
  void shouldRefuseBadRoleStatementsClearly() {
    assertTrue(error("CREATE ROLE user;").contains("built in"));
    assertTrue(error("DROP ROLE administrator;").contains("built in"));
    assertTrue(error("CREATE ROLE r; CREATE ROLE R;").contains("already exists"));
    assertTrue(error("CREATE ROLE r WITH FLY;").contains("unknown permission FLY"));
    assertTrue(error("DROP ROLE ghost;").contains("role ghost does not exist"));
    assertTrue(error(TABLE + "GRANT EXECUTE ON GetT TO ghost;").contains("role ghost does not exist"));
    assertTrue(error("CREATE ROLE r; GRANT EXECUTE ON Nope TO r;").contains("procedure NOPE does not exist"));
    assertTrue(error("GRANT SELECT ON t TO r;").contains("EXECUTE"));
    assertTrue(error(TABLE + "REVOKE EXECUTE ON GetT TO user;").contains("FROM"));
    assertTrue(error("CREATE ROLE r WITH;").contains("permission"));
  }

  @Test
  void shouldAcceptDropRoleIfExists() throws DdlException {
    assertFalse(compile("DROP ROLE IF EXISTS ghost;").roles().containsKey("ghost"));
  }
}
