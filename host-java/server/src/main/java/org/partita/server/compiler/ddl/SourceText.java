package org.partita.server.compiler.ddl;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The text of one source file and its line structure: turns char offsets into {@link
 * SourcePosition}s and gives back source lines for error excerpts. Immutable.
 *
 * <p>A line ends at {@code \n}, {@code \r\n} or a lone {@code \r}; the terminator belongs to the
 * line it ends.
 */
public final class SourceText {

  private final String fileName;
  private final String text;
  private final int[] lineStarts;

  /** REQUIRES: neither argument is null. */
  public SourceText(String fileName, String text) {
    this.fileName = Objects.requireNonNull(fileName, "fileName");
    this.text = Objects.requireNonNull(text, "text");
    this.lineStarts = findLineStarts(text);
  }

  /** The file's name as given, used in every position. */
  public String fileName() {
    return fileName;
  }

  /** The whole text. */
  public String text() {
    return text;
  }

  /** The number of lines; an empty text has one (empty) line. */
  public int lineCount() {
    return lineStarts.length;
  }

  /** The position of the char at {@code offset}. REQUIRES: {@code 0 <= offset <= length}. */
  public SourcePosition positionAt(int offset) {
    if (offset < 0 || offset > text.length()) {
      throw new IndexOutOfBoundsException("offset " + offset + " outside 0.." + text.length());
    }
    final int line = lineIndexOf(offset);
    return new SourcePosition(fileName, line + 1, offset - lineStarts[line] + 1);
  }

  /** Line {@code line} (1-based) without its terminator. REQUIRES: it exists. */
  public String line(int line) {
    if (line < 1 || line > lineStarts.length) {
      throw new IndexOutOfBoundsException("line " + line + " outside 1.." + lineStarts.length);
    }
    final int start = lineStarts[line - 1];
    int end = line < lineStarts.length ? lineStarts[line] : text.length();
    while (end > start && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
      end--;
    }
    return text.substring(start, end);
  }

  /**
   * An error at {@code position} in this file, with the source line as excerpt.
   *
   * @param offendingText the text at {@code position} that caused the error, or null
   */
  public DdlException error(SourcePosition position, String reason, String offendingText) {
    final boolean known =
        position.fileName().equals(fileName) && position.line() <= lineStarts.length;
    return new DdlException(position, reason, offendingText, known ? line(position.line()) : null);
  }

  /** Like {@link #error(SourcePosition, String, String)} at the char at {@code offset}. */
  public DdlException errorAt(int offset, String reason, String offendingText) {
    return error(positionAt(offset), reason, offendingText);
  }

  private int lineIndexOf(int offset) {
    int low = 0;
    int high = lineStarts.length - 1;
    while (low < high) {
      final int mid = (low + high + 1) >>> 1;
      if (lineStarts[mid] <= offset) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return low;
  }

  private static int[] findLineStarts(String text) {
    final List<Integer> starts = new ArrayList<>();
    starts.add(0);
    for (int i = 0; i < text.length(); i++) {
      final char c = text.charAt(i);
      if (c == '\n' || (c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n'))) {
        starts.add(i + 1);
      }
    }
    return starts.stream().mapToInt(Integer::intValue).toArray();
  }
}
