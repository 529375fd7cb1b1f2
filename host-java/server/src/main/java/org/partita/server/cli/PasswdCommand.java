package org.partita.server.cli;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.partita.server.security.ScramCredential;
import org.partita.server.security.UserEntry;
import org.partita.server.security.UserFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code partita passwd}: sets a user's password and roles in a users file
 * (docs/security.md), or prints the SCRAM credential for
 * {@code @UpdateUser}. The password is read from the terminal without echo,
 * or as the first line of standard input; only its SCRAM salted keys are
 * written. Exit code 1 on any error.
 */
@Command(name = "passwd", mixinStandardHelpOptions = true,
    description = {"Add or change a user in a users file (partita start --users FILE): its roles and its password, "
        + "stored as SCRAM-SHA-256 salted keys only.",
        "The password is read from the terminal (no echo) or from the first line of standard input."})
final class PasswdCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "USER", description = "the user's name (letters, digits, _ . @ -)")
  private String user;

  @Option(names = "--users", paramLabel = "FILE", description = "the users file to update (created if missing)")
  private Path file;

  @Option(names = "--roles", paramLabel = "ROLE,...", split = ",", description = "the user's roles (built in: "
      + "administrator, user; default: user's roles kept when it exists, else 'user')")
  private List<String> roles;

  @Option(names = "--print", description = "print the credential (for @UpdateUser) instead of writing a file")
  private boolean print;

  @Option(names = "--iterations", paramLabel = "N", description = "PBKDF2 iterations (default: ${DEFAULT-VALUE}; "
      + "at least 4096)")
  private int iterations = ScramCredential.DEFAULT_ITERATIONS;

  @Override
  public Integer call() {
    if (file == null && !print) {
      System.err.println("partita passwd: give --users FILE, or --print");
      return 1;
    }
    try {
      final String password = readPassword();
      final ScramCredential credential = ScramCredential.derive(password, iterations);
      if (print) {
        UserEntry.requireName(user, "user");
        System.out.println(credential.format());
        return 0;
      }
      update(credential);
      return 0;
    } catch (IOException | IllegalArgumentException e) {
      System.err.println("partita passwd: " + e.getMessage());
      return 1;
    }
  }

  private void update(ScramCredential credential) throws IOException {
    final List<UserEntry> users = Files.exists(file) ? new ArrayList<>(UserFile.read(file)) : new ArrayList<>();
    final UserEntry old = users.stream().filter(u -> u.name().equals(user)).findFirst().orElse(null);
    final List<String> newRoles = roles != null ? roles : old != null ? old.roles() : List.of("user");
    users.removeIf(u -> u.name().equals(user));
    users.add(new UserEntry(user, credential, newRoles));
    UserFile.write(file, users);
    System.out.println("partita passwd: " + (old == null ? "added" : "updated") + " user " + user + " (roles "
        + String.join(",", newRoles) + ") in " + file);
  }

  private static String readPassword() throws IOException {
    final Console console = System.console();
    if (console != null) {
      final char[] first = console.readPassword("password: ");
      final char[] again = console.readPassword("again: ");
      if (first == null || again == null || !new String(first).equals(new String(again))) {
        throw new IOException("the passwords differ");
      }
      return requireNonEmpty(new String(first));
    }
    final String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    if (line == null) {
      throw new IOException("no password on standard input");
    }
    return requireNonEmpty(line);
  }

  private static String requireNonEmpty(String password) throws IOException {
    if (password.isEmpty()) {
      throw new IOException("the password must not be empty");
    }
    return password;
  }
}
