package org.partita.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The users file: round trip, errors naming the line, changes written before they apply. */
final class UserFileTest {
  @TempDir
  Path dir;

  @Test
  void shouldWriteAndReadUsersWithoutTheirPasswords() throws IOException {
    final Path file = dir.resolve("users");
    final ScramCredential credential = ScramCredential.derive("secret", 4096);
    UserFile.write(file, List.of(new UserEntry("alice", credential, List.of("user", "Ops"))));
    final String text = Files.readString(file);
    assertFalse(text.contains("secret"));
    final UserEntry read = UserFile.read(file).get(0);
    assertEquals("alice", read.name());
    assertEquals(List.of("user", "ops"), read.roles());
    assertEquals(credential.format(), read.credential().format());
    assertTrue(read.credential().matches("secret"));
    assertFalse(read.credential().matches("Secret"));
  }

  @Test
  void shouldNameTheLineOfAMalformedEntry() throws IOException {
    final Path file = dir.resolve("users");
    Files.writeString(file, "# comment\n\nalice:user:SCRAM-SHA-256$10:AAAA$AAAA:AAAA\n");
    final IOException e = assertThrows(IOException.class, () -> UserFile.read(file));
    assertTrue(e.getMessage().contains(file + ":3:"), e.getMessage());
    Files.writeString(file, "bad name:user:x\n");
    assertTrue(assertThrows(IOException.class, () -> UserFile.read(file)).getMessage().contains(":1:"));
    Files.writeString(file, "alice\n");
    assertTrue(assertThrows(IOException.class, () -> UserFile.read(file)).getMessage()
        .contains("name:roles:credential"));
  }

  @Test
  void shouldRefuseAUserListedTwice() throws IOException {
    final Path file = dir.resolve("users");
    final String line = UserFile.formatLine(new UserEntry("bob", ScramCredential.derive("p", 4096), List.of()));
    Files.writeString(file, line + "\n" + line + "\n");
    assertTrue(assertThrows(IOException.class, () -> UserFile.read(file)).getMessage().contains("twice"));
  }

  @Test
  void shouldPersistRunTimeChanges() throws IOException {
    final Path file = dir.resolve("users");
    UserFile.write(file, List.of());
    final UserDirectory users = UserDirectory.load(file);
    assertTrue(users.put(new UserEntry("carol", ScramCredential.derive("c", 4096), List.of("administrator"))));
    assertEquals(List.of("administrator"), UserDirectory.load(file).find("carol").orElseThrow().roles());
    assertTrue(users.remove("carol"));
    assertFalse(users.remove("carol"));
    assertTrue(UserDirectory.load(file).find("carol").isEmpty());
  }
}
