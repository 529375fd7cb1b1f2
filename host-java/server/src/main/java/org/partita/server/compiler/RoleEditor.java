package org.partita.server.compiler;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.partita.server.planner.PlanningException;
import org.partita.server.security.Permission;
import org.partita.server.security.Role;

/**
 * Applies CREATE ROLE, DROP ROLE, GRANT and REVOKE to a catalog's roles
 * (docs/security.md). The built-in roles {@code administrator} and
 * {@code user} are always there: they cannot be created or dropped, and
 * procedures may be granted to them. Errors are {@link PlanningException}s;
 * the caller adds the position. Not thread-safe.
 */
final class RoleEditor {
  private final Map<String, Role> roles;

  RoleEditor(Map<String, Role> base) {
    this.roles = new TreeMap<>(base);
  }

  /** The built-in roles alone, by name. */
  static Map<String, Role> builtIns() {
    final Map<String, Role> map = new TreeMap<>();
    map.put(Role.ADMINISTRATOR.name(), Role.ADMINISTRATOR);
    map.put(Role.USER.name(), Role.USER);
    return Collections.unmodifiableMap(map);
  }

  Map<String, Role> roles() {
    return Collections.unmodifiableMap(new TreeMap<>(roles));
  }

  void create(String name, List<String> permissionNames) throws PlanningException {
    final String key = Role.normalize(name);
    if (Role.isBuiltIn(key)) {
      throw new PlanningException("role " + key + " is built in and cannot be created");
    }
    if (roles.containsKey(key)) {
      throw new PlanningException("role " + key + " already exists");
    }
    final EnumSet<Permission> permissions = EnumSet.noneOf(Permission.class);
    for (String p : permissionNames) {
      try {
        permissions.add(Permission.parse(p));
      } catch (IllegalArgumentException e) {
        throw new PlanningException("CREATE ROLE " + key + ": " + e.getMessage());
      }
    }
    roles.put(key, new Role(key, permissions, Set.of()));
  }

  void drop(String name, boolean ifExists) throws PlanningException {
    final String key = Role.normalize(name);
    if (Role.isBuiltIn(key)) {
      throw new PlanningException("role " + key + " is built in and cannot be dropped");
    }
    if (roles.remove(key) == null && !ifExists) {
      throw new PlanningException("role " + key + " does not exist");
    }
  }

  /** Grants (or revokes) executing {@code procedure} to every role of {@code roleNames}. */
  void grant(boolean grant, String procedure, List<String> roleNames) throws PlanningException {
    final List<Role> updated = new ArrayList<>();
    for (String name : roleNames) {
      final Role role = roles.get(Role.normalize(name));
      if (role == null) {
        throw new PlanningException("role " + Role.normalize(name) + " does not exist");
      }
      updated.add(role.withGrant(procedure, grant));
    }
    updated.forEach(r -> roles.put(r.name(), r));
  }

  /** Removes every grant of a dropped procedure, so a new procedure of that name starts without any. */
  void forgetProcedure(String procedure) {
    for (Role role : List.copyOf(roles.values())) {
      if (role.procedures().contains(procedure)) {
        roles.put(role.name(), role.withGrant(procedure, false));
      }
    }
  }
}
