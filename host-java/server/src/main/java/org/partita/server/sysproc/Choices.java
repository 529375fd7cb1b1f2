package org.partita.server.sysproc;

import java.util.Map;
import java.util.TreeMap;

/**
 * Named alternatives looked up case-insensitively (procedure names,
 * selectors), listing themselves in declaration order for error messages.
 * Immutable after construction; thread-safe.
 */
final class Choices<T> {
  private final Map<String, T> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
  private final StringBuilder list = new StringBuilder();

  Choices<T> add(String name, T choice) {
    byName.put(name, choice);
    list.append(list.length() == 0 ? "" : ", ").append(name);
    return this;
  }

  /** The choice called {@code name} (any case), or null. */
  T find(String name) {
    return name == null ? null : byName.get(name);
  }

  /** Every name, comma-separated, in the order added. */
  String names() {
    return list.toString();
  }
}
