package org.partita.server.compiler.ddl;

import java.util.Objects;

/**
 * A name in a DDL statement and where it was written, so later stages can point at it ("table
 * VOTES does not exist").
 *
 * <p>SQL names are case-insensitive: an unquoted name is stored in upper case, a double-quoted
 * one exactly as written between the quotes (with {@code ""} read as {@code "}). A Java class
 * name is stored exactly as written.
 *
 * @param name the normalised name, never empty
 * @param position where the name starts in the file
 */
public record Identifier(String name, SourcePosition position) {

  /** REQUIRES: {@code name} is not empty; neither argument is null. */
  public Identifier {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(position, "position");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("empty identifier at " + position);
    }
  }
}
