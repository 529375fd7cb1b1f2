package org.partita.server.compiler.ddl;

import java.util.Objects;

/**
 * One statement of a DDL script, as cut out by {@link ScriptSplitter}: its text and where that
 * text lies in the source file. Immutable.
 *
 * <p>The text has no terminating {@code ;} and no leading or trailing white space, and every
 * comment in it is replaced by spaces (line breaks inside block comments are kept). It is
 * therefore exactly as long as the source it came from and has the same line breaks, so that any
 * offset, or any line and column, within the text maps back to the file exactly.
 */
public final class ScriptStatement {

  private final SourceText source;
  private final int sourceOffset;
  private final String text;
  private final int lineCount;

  /**
   * REQUIRES: {@code text} has the length and line breaks of the source from {@code
   * sourceOffset}.
   */
  ScriptStatement(SourceText source, int sourceOffset, String text) {
    this.source = Objects.requireNonNull(source, "source");
    this.sourceOffset = sourceOffset;
    this.text = Objects.requireNonNull(text, "text");
    this.lineCount = new SourceText(source.fileName(), text).lineCount();
  }

  /** The statement's text, comments blanked, without {@code ;}. */
  public String text() {
    return text;
  }

  /** The file the statement comes from. */
  public SourceText source() {
    return source;
  }

  /** The offset in {@link #source()} where the text starts. */
  public int sourceOffset() {
    return sourceOffset;
  }

  /** The position of the statement's first char. */
  public SourcePosition start() {
    return source.positionAt(sourceOffset);
  }

  /**
   * The file position of the char at {@code offset} in {@link #text()}; {@code text().length()}
   * gives the position just after the statement. REQUIRES: {@code 0 <= offset <= length}.
   */
  public SourcePosition positionOf(int offset) {
    checkOffset(offset);
    return source.positionAt(sourceOffset + offset);
  }

  /**
   * The file position of a line and column counted within {@link #text()}, both 1-based, as
   * parsers report them for the statement alone. Line 1 starts at {@link #start()}. Columns past
   * the end of the line are extrapolated. REQUIRES: {@code 1 <= line <= } the number of lines in
   * the text, {@code column >= 1}.
   */
  public SourcePosition positionOf(int line, int column) {
    if (line < 1 || line > lineCount || column < 1) {
      throw new IllegalArgumentException(
          "line " + line + " column " + column + " outside a statement of " + lineCount + " lines");
    }
    final SourcePosition start = start();
    if (line == 1) {
      return new SourcePosition(start.fileName(), start.line(), start.column() + column - 1);
    }
    return new SourcePosition(start.fileName(), start.line() + line - 1, column);
  }

  /**
   * An error at the char at {@code offset} in {@link #text()}, with the source line as excerpt.
   *
   * @param offendingText the text at {@code offset} that caused the error, or null
   */
  public DdlException errorAt(int offset, String reason, String offendingText) {
    return source.error(positionOf(offset), reason, offendingText);
  }

  /** Like {@link #errorAt(int, String, String)} at a line and column within the text. */
  public DdlException errorAt(int line, int column, String reason, String offendingText) {
    return source.error(positionOf(line, column), reason, offendingText);
  }

  /**
   * The part of this statement from {@code offset} on, as a statement of its own whose positions
   * still map to the file. REQUIRES: {@code 0 <= offset <= length}.
   */
  public ScriptStatement suffix(int offset) {
    checkOffset(offset);
    return new ScriptStatement(source, sourceOffset + offset, text.substring(offset));
  }

  private void checkOffset(int offset) {
    if (offset < 0 || offset > text.length()) {
      throw new IndexOutOfBoundsException("offset " + offset + " outside 0.." + text.length());
    }
  }

  @Override
  public String toString() {
    return start() + ": " + text;
  }
}
