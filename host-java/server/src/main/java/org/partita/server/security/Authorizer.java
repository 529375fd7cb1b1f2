package org.partita.server.security;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Decides whether a principal may do something, from its role names and
 * the roles the catalog defines now (so DDL changing a role applies to the
 * next call). A role name the catalog no longer defines gives nothing.
 * Stateless; thread-safe.
 */
public final class Authorizer {
  private Authorizer() {}

  /** Every permission {@code who}'s roles hold. */
  public static Set<Permission> permissions(Principal who, Map<String, Role> roles) {
    final EnumSet<Permission> held = EnumSet.noneOf(Permission.class);
    for (String name : who.roles()) {
      final Role role = roles.get(name);
      if (role != null) {
        held.addAll(role.permissions());
      }
    }
    return held;
  }

  /** Whether {@code who} holds {@code needed}. Unchecked principals hold everything. */
  public static boolean holds(Principal who, Map<String, Role> roles, Permission needed) {
    return who.unchecked() || Permission.anyImplies(permissions(who, roles), needed);
  }

  /** Whether {@code who} may execute {@code procedure}: ALLPROC (or ADMIN), or a grant to one of its roles. */
  public static boolean mayExecute(Principal who, Map<String, Role> roles, String procedure) {
    if (holds(who, roles, Permission.ALLPROC)) {
      return true;
    }
    for (String name : who.roles()) {
      final Role role = roles.get(name);
      if (role != null && role.procedures().contains(procedure)) {
        return true;
      }
    }
    return false;
  }
}
