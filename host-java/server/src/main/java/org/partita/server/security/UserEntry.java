package org.partita.server.security;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One user: a name, its SCRAM credential and its roles (lower-case names).
 * Immutable.
 */
public record UserEntry(String name, ScramCredential credential, List<String> roles) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.@-]{1,64}");

  /** REQUIRES: nothing null. @throws IllegalArgumentException for a bad user or role name */
  public UserEntry {
    requireName(name, "user");
    final List<String> normalized = new ArrayList<>();
    for (String role : roles) {
      requireName(role, "role");
      final String r = Role.normalize(role);
      if (!normalized.contains(r)) {
        normalized.add(r);
      }
    }
    roles = List.copyOf(normalized);
  }

  /** @throws IllegalArgumentException unless {@code name} is 1-64 of A-Z a-z 0-9 _ . @ - */
  public static void requireName(String name, String what) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("a " + what + " name must be 1 to 64 letters, digits, '_', '.', '@' or '-'"
          + ", got '" + name + "'");
    }
  }

  /** The user as it logs in. */
  public Principal principal(String peer) {
    return new Principal(name, roles, peer);
  }
}
