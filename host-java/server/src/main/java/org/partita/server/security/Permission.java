package org.partita.server.security;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What a role allows (docs/security.md, "Permissions"). ADMIN implies every
 * other permission; SQLWRITE implies SQLREAD. Executing a procedure needs
 * ALLPROC or an EXECUTE grant to one of the caller's roles.
 */
public enum Permission {
  /** Read-only ad-hoc SQL: {@code @AdHoc} queries, {@code @Explain}, {@code @ExplainProc}. */
  SQLREAD,
  /** Ad-hoc SQL that writes (INSERT, UPDATE, DELETE, UPSERT); not DDL. */
  SQLWRITE,
  /** Executing every procedure, granted or not. */
  ALLPROC,
  /** Everything: DDL, roles and users, {@code @Shutdown}, {@code @Statistics}, snapshots. */
  ADMIN;

  /** Whether holding this permission gives {@code needed}. */
  public boolean implies(Permission needed) {
    return this == needed || this == ADMIN || (this == SQLWRITE && needed == SQLREAD);
  }

  /** Whether any of {@code held} gives {@code needed}. */
  public static boolean anyImplies(Set<Permission> held, Permission needed) {
    for (Permission p : held) {
      if (p.implies(needed)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The permission named {@code name} (any case).
   *
   * @throws IllegalArgumentException naming the known permissions when there is none
   */
  public static Permission parse(String name) {
    try {
      return valueOf(name.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown permission " + name + "; permissions: " + EnumSet.allOf(Permission.class));
    }
  }
}
