package org.partita.server.security;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * A role: a name, its permissions and the procedures granted to it
 * (docs/security.md). Names are kept lower-case and match any case; granted
 * procedure names are kept as declared and match any case. Immutable.
 */
public record Role(String name, Set<Permission> permissions, Set<String> procedures) {
  /** The built-in role with every permission. */
  public static final Role ADMINISTRATOR = new Role("administrator", EnumSet.of(Permission.ADMIN), Set.of());
  /** The built-in role of ordinary users: ad-hoc reads and writes, granted procedures only. */
  public static final Role USER = new Role("user", EnumSet.of(Permission.SQLREAD, Permission.SQLWRITE), Set.of());

  public Role {
    name = normalize(name);
    permissions = permissions.isEmpty() ? Collections.unmodifiableSet(EnumSet.noneOf(Permission.class))
        : Collections.unmodifiableSet(EnumSet.copyOf(permissions));
    final TreeSet<String> granted = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    granted.addAll(procedures);
    procedures = Collections.unmodifiableSet(granted);
  }

  /** A role's name as kept: lower-case. */
  public static String normalize(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  /** Whether {@code name} is one of the built-in roles, which DDL cannot create or drop. */
  public static boolean isBuiltIn(String name) {
    final String n = normalize(name);
    return n.equals(ADMINISTRATOR.name) || n.equals(USER.name);
  }

  /** This role with {@code procedure} granted (or revoked when {@code granted} is false). */
  public Role withGrant(String procedure, boolean granted) {
    final TreeSet<String> next = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    next.addAll(procedures);
    if (granted) {
      next.add(procedure);
    } else {
      next.remove(procedure);
    }
    return new Role(name, permissions, next);
  }
}
