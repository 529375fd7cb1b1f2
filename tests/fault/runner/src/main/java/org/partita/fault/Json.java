package org.partita.fault;

import java.util.List;
import java.util.Map;

/** The little JSON the history needs: strings, numbers, arrays and objects already encoded. Stateless. */
final class Json {
  private Json() {
  }

  /** {@code text} as a JSON string literal. */
  static String string(String text) {
    final StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      final char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  /** Encoded values as a JSON array. */
  static String array(List<String> encoded) {
    return "[" + String.join(",", encoded) + "]";
  }

  /** Keys to encoded values as a JSON object, in the map's order. */
  static String object(Map<String, String> encoded) {
    final StringBuilder out = new StringBuilder("{");
    for (Map.Entry<String, String> e : encoded.entrySet()) {
      if (out.length() > 1) {
        out.append(',');
      }
      out.append(string(e.getKey())).append(':').append(e.getValue());
    }
    return out.append('}').toString();
  }
}
