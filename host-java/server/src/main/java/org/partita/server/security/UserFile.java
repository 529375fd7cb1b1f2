package org.partita.server.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * The users file given to {@code partita start --users} (docs/security.md):
 * one user per line, {@code name:role,role:credential}, the credential in
 * RFC 5803's form ({@link ScramCredential}); blank lines and lines starting
 * with '#' are ignored. Every error names the file and line. Writing
 * replaces the file atomically (a temporary file renamed over it), readable
 * by its owner only. Stateless.
 */
public final class UserFile {
  private static final String HEADER = "# Partita users: name:role,role:SCRAM-SHA-256$iterations:salt$StoredKey:ServerKey\n"
      + "# Written by 'partita passwd' and by @UpdateUser/@DropUser; passwords are not stored.\n";

  private UserFile() {}

  /**
   * Reads every user of {@code file}.
   *
   * @throws IOException when the file cannot be read or a line is malformed (naming the file and line)
   */
  public static List<UserEntry> read(Path file) throws IOException {
    final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    final List<UserEntry> users = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      final String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      try {
        final UserEntry entry = parseLine(line);
        if (users.stream().anyMatch(u -> u.name().equals(entry.name()))) {
          throw new IllegalArgumentException("user " + entry.name() + " appears twice");
        }
        users.add(entry);
      } catch (IllegalArgumentException e) {
        throw new IOException(file + ":" + (i + 1) + ": " + e.getMessage());
      }
    }
    return users;
  }

  /** One line's user. @throws IllegalArgumentException saying what is wrong */
  static UserEntry parseLine(String line) {
    final int first = line.indexOf(':');
    final int second = first < 0 ? -1 : line.indexOf(':', first + 1);
    if (second < 0) {
      throw new IllegalArgumentException("expected name:roles:credential");
    }
    final String roles = line.substring(first + 1, second).strip();
    return new UserEntry(line.substring(0, first).strip(),
        ScramCredential.parse(line.substring(second + 1).strip()),
        roles.isEmpty() ? List.of() : Arrays.stream(roles.split(",")).map(String::strip).toList());
  }

  /** One user as a line of the file (no newline). */
  static String formatLine(UserEntry user) {
    return user.name() + ":" + String.join(",", user.roles()) + ":" + user.credential().format();
  }

  /** Replaces {@code file} with {@code users}, atomically. */
  public static void write(Path file, Collection<UserEntry> users) throws IOException {
    final StringBuilder text = new StringBuilder(HEADER);
    for (UserEntry user : users) {
      text.append(formatLine(user)).append('\n');
    }
    final Path dir = file.toAbsolutePath().getParent();
    final Path temporary = Files.createTempFile(dir, ".users", ".tmp");
    try {
      try {
        Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // Not a POSIX file system: the directory's permissions apply.
      }
      Files.writeString(temporary, text, StandardCharsets.UTF_8);
      Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temporary);
    }
  }
}
