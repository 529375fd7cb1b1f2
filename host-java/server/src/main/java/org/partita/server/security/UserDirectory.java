package org.partita.server.security;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * The server's users: read from the users file at start, changed at run
 * time by an administrator ({@code @UpdateUser}, {@code @DropUser}), each
 * change written back to that file before it takes effect, so users survive
 * a restart. Lookups read an immutable map (no lock); changes are
 * serialized. Thread-safe.
 */
public final class UserDirectory {
  private static final Logger LOG = Logger.getLogger(UserDirectory.class.getName());

  private final Path file;
  private volatile Map<String, UserEntry> users;

  private UserDirectory(Path file, Map<String, UserEntry> users) {
    this.file = file;
    this.users = users;
  }

  /** The users of {@code file}. @throws IOException when it cannot be read or is malformed */
  public static UserDirectory load(Path file) throws IOException {
    return new UserDirectory(file, index(UserFile.read(file)));
  }

  /** Users kept in memory only (tests, embedding): changes are not written anywhere. */
  public static UserDirectory inMemory(List<UserEntry> users) {
    return new UserDirectory(null, index(users));
  }

  private static Map<String, UserEntry> index(List<UserEntry> list) {
    final Map<String, UserEntry> map = new TreeMap<>();
    list.forEach(u -> map.put(u.name(), u));
    return Collections.unmodifiableMap(map);
  }

  /** The user called {@code name} (exact case). */
  public Optional<UserEntry> find(String name) {
    return Optional.ofNullable(users.get(name));
  }

  public int size() {
    return users.size();
  }

  /** Adds or replaces {@code user}; written to the file first. Returns true iff the user is new. */
  public synchronized boolean put(UserEntry user) throws IOException {
    final Map<String, UserEntry> next = new TreeMap<>(users);
    final boolean added = next.put(user.name(), user) == null;
    commit(next);
    return added;
  }

  /** Removes user {@code name}; returns false iff there was none. */
  public synchronized boolean remove(String name) throws IOException {
    if (!users.containsKey(name)) {
      return false;
    }
    final Map<String, UserEntry> next = new TreeMap<>(users);
    next.remove(name);
    commit(next);
    return true;
  }

  private void commit(Map<String, UserEntry> next) throws IOException {
    if (file != null) {
      UserFile.write(file, next.values());
    } else {
      LOG.fine("users are kept in memory only; the change is not persisted");
    }
    users = Collections.unmodifiableMap(next);
  }

  /** The users file, or null when users live in memory only. */
  public Path file() {
    return file;
  }
}
