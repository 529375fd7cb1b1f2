package org.partita.server.compiler.ddl;

import java.util.Objects;
import java.util.Optional;

/**
 * A user error in a DDL script: what was wrong and where. Every stage of the DDL compiler reports
 * bad input with this exception; it never signals a bug in Partita.
 *
 * <p>{@link #getMessage()} is the text to show the user:
 *
 * <pre>
 * schema.sql:12:26: expected COLUMN after 'ON', found 'COLUM'
 * PARTITION TABLE votes ON COLUM phone_number;
 *                          ^~~~~
 * </pre>
 *
 * The first line is {@code position: reason}. The excerpt that follows is present only when the
 * source line is known; the caret sits under the position's column and the tildes underline the
 * rest of the offending text on that line. The reason should itself name what was expected and
 * what was found; the offending text only drives the underline and tools.
 */
public final class DdlException extends Exception {

  private final SourcePosition position;
  private final String reason;
  private final String offendingText;
  private final String sourceLine;

  /** An error at {@code position} with no offending text and no source excerpt. */
  public DdlException(SourcePosition position, String reason) {
    this(position, reason, null, null);
  }

  /** An error at {@code position} about {@code offendingText} (or null), with no excerpt. */
  public DdlException(SourcePosition position, String reason, String offendingText) {
    this(position, reason, offendingText, null);
  }

  /**
   * An error at {@code position}.
   *
   * @param offendingText the text that starts at {@code position} and caused the error, or null
   * @param sourceLine the whole source line of {@code position} without its terminator, or null
   */
  public DdlException(
      SourcePosition position, String reason, String offendingText, String sourceLine) {
    super(format(position, reason, offendingText, sourceLine));
    this.position = Objects.requireNonNull(position, "position");
    this.reason = Objects.requireNonNull(reason, "reason");
    this.offendingText = offendingText;
    this.sourceLine = sourceLine;
  }

  /** Where the error is. */
  public SourcePosition position() {
    return position;
  }

  /** The reason alone, without position or excerpt. */
  public String reason() {
    return reason;
  }

  /** The text that caused the error, if known. */
  public Optional<String> offendingText() {
    return Optional.ofNullable(offendingText);
  }

  /** The source line of {@link #position()}, if known. */
  public Optional<String> sourceLine() {
    return Optional.ofNullable(sourceLine);
  }

  private static String format(
      SourcePosition position, String reason, String offendingText, String sourceLine) {
    final String headline = position + ": " + reason;
    if (sourceLine == null) {
      return headline;
    }
    final String caret = caretLine(position.column(), offendingText, sourceLine);
    return headline + "\n" + sourceLine + "\n" + caret;
  }

  /** Spaces (tabs where the source has them, to stay aligned), a caret, then tildes. */
  private static String caretLine(int column, String offendingText, String sourceLine) {
    final StringBuilder caret = new StringBuilder();
    for (int i = 0; i < column - 1; i++) {
      final boolean tab = i < sourceLine.length() && sourceLine.charAt(i) == '\t';
      caret.append(tab ? '\t' : ' ');
    }
    caret.append('^');
    final int available = sourceLine.length() - (column - 1);
    final int underline = Math.min(firstLineLength(offendingText), available);
    for (int i = 1; i < underline; i++) {
      caret.append('~');
    }
    return caret.toString();
  }

  private static int firstLineLength(String text) {
    if (text == null) {
      return 1;
    }
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n' || text.charAt(i) == '\r') {
        return i;
      }
    }
    return text.length();
  }
}
