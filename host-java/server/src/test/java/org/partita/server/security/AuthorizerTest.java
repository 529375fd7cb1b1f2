package org.partita.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Permissions implied by roles, grants, and the system procedure table. */
final class AuthorizerTest {
  private static final Role TELLER = new Role("Teller", EnumSet.of(Permission.SQLREAD), Set.of("Deposit"));
  private static final Map<String, Role> ROLES = Map.of("administrator", Role.ADMINISTRATOR, "user", Role.USER,
      "teller", TELLER);

  private static Principal as(String... roles) {
    return new Principal("p", List.of(roles), "127.0.0.1:1");
  }

  @Test
  void shouldGiveAdministratorsEverything() {
    for (Permission p : Permission.values()) {
      assertTrue(Authorizer.holds(as("administrator"), ROLES, p), p.name());
    }
    assertTrue(Authorizer.mayExecute(as("administrator"), ROLES, "Anything"));
  }

  @Test
  void shouldKeepUsersToSqlAndGrantedProcedures() {
    assertTrue(Authorizer.holds(as("user"), ROLES, Permission.SQLREAD));
    assertTrue(Authorizer.holds(as("user"), ROLES, Permission.SQLWRITE));
    assertFalse(Authorizer.holds(as("user"), ROLES, Permission.ADMIN));
    assertFalse(Authorizer.mayExecute(as("user"), ROLES, "Deposit"));
    assertTrue(Authorizer.mayExecute(as("user", "teller"), ROLES, "DEPOSIT"));
    assertFalse(Authorizer.holds(as("teller"), ROLES, Permission.SQLWRITE));
  }

  @Test
  void shouldGiveNothingForARoleTheCatalogNoLongerHas() {
    assertFalse(Authorizer.holds(as("dropped"), ROLES, Permission.SQLREAD));
    assertFalse(Authorizer.mayExecute(as("dropped"), ROLES, "Deposit"));
    assertTrue(Authorizer.holds(Principal.UNCHECKED, ROLES, Permission.ADMIN));
  }

  @Test
  void shouldNeedAdminForSystemProceduresNotListed() {
    assertEquals(Permission.ADMIN, SystemProcedurePermissions.required("@Shutdown"));
    assertEquals(Permission.ADMIN, SystemProcedurePermissions.required("@SomethingNew"));
    assertEquals(Permission.SQLREAD, SystemProcedurePermissions.required("@explain"));
    assertTrue(SystemProcedurePermissions.openToEveryUser("@Ping"));
    assertFalse(SystemProcedurePermissions.openToEveryUser("@Statistics"));
  }

  @Test
  void shouldParsePermissionsInAnyCase() {
    assertEquals(Permission.SQLWRITE, Permission.parse("sqlWrite"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Permission.parse("DEFAULTPROC")).getMessage()
        .contains("SQLREAD"));
    assertTrue(Permission.SQLWRITE.implies(Permission.SQLREAD));
    assertFalse(Permission.SQLREAD.implies(Permission.SQLWRITE));
  }
}
