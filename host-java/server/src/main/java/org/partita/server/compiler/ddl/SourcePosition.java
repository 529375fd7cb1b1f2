package org.partita.server.compiler.ddl;

import java.util.Objects;

/**
 * A place in a source file: the file's name, a 1-based line and a 1-based column.
 *
 * <p>Lines end at {@code \n}, {@code \r\n} or a lone {@code \r}. Columns count UTF-16 chars from
 * the start of the line, so a tab counts as one column.
 *
 * <p>{@link #toString()} returns {@code file:line:column}, the form compilers and editors
 * recognise.
 */
public record SourcePosition(String fileName, int line, int column) {

  /** REQUIRES: {@code fileName} is not null, {@code line >= 1} and {@code column >= 1}. */
  public SourcePosition {
    Objects.requireNonNull(fileName, "fileName");
    if (line < 1 || column < 1) {
      throw new IllegalArgumentException(
          "line and column are 1-based, got line " + line + " column " + column);
    }
  }

  @Override
  public String toString() {
    return fileName + ":" + line + ":" + column;
  }
}
