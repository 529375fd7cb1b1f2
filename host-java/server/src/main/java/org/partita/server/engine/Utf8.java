package org.partita.server.engine;

import java.nio.ByteBuffer;

/** UTF-8 encoding of a String straight into a buffer (as String.getBytes would, with '?' for lone surrogates). */
final class Utf8 {
  private Utf8() {}

  /** Writes {@code s} at the buffer's position. REQUIRES: 3 bytes per char remain. */
  static void encode(String s, ByteBuffer out) {
    final int n = s.length();
    for (int i = 0; i < n; i++) {
      final char c = s.charAt(i);
      if (c < 0x80) {
        out.put((byte) c);
      } else if (c < 0x800) {
        out.put((byte) (0xC0 | (c >> 6))).put((byte) (0x80 | (c & 0x3F)));
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        final int cp = Character.toCodePoint(c, s.charAt(++i));
        out.put((byte) (0xF0 | (cp >> 18)))
            .put((byte) (0x80 | ((cp >> 12) & 0x3F)))
            .put((byte) (0x80 | ((cp >> 6) & 0x3F)))
            .put((byte) (0x80 | (cp & 0x3F)));
      } else if (Character.isSurrogate(c)) {
        out.put((byte) '?');
      } else {
        out.put((byte) (0xE0 | (c >> 12))).put((byte) (0x80 | ((c >> 6) & 0x3F))).put((byte) (0x80 | (c & 0x3F)));
      }
    }
  }
}
