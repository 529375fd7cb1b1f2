package org.partita.integration;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.partita.client.ClientConfig;
import org.partita.client.PartitaClient;
import org.partita.client.TlsOptions;

/**
 * What the security tests set up: a users file written by {@code partita
 * passwd}, and certificates made at test time with the JDK's keytool
 * (nothing secret is kept in the repository). Each test class makes its own
 * in a temporary directory.
 */
final class SecurityFixture {
  static final String STORE_PASSWORD = "test-store";
  static final String ADMIN_PASSWORD = "admin-secret";
  static final String ALICE_PASSWORD = "alice-secret";
  static final String TINA_PASSWORD = "tina-secret";

  private SecurityFixture() {}

  /** Users admin (administrator), alice (user) and tina (teller) in {@code dir}/users. */
  static Path users(Path dir) throws IOException, InterruptedException {
    final Path file = dir.resolve("users");
    passwd(file, "admin", "administrator", ADMIN_PASSWORD);
    passwd(file, "alice", "user", ALICE_PASSWORD);
    passwd(file, "tina", "teller", TINA_PASSWORD);
    return file;
  }

  /** Runs {@code partita passwd --users FILE --roles ROLES USER} with the password on standard input. */
  static void passwd(Path file, String user, String roles, String password) throws IOException, InterruptedException {
    final List<String> command = new ArrayList<>(ServerProcess.partitaCommand());
    command.addAll(List.of("passwd", "--users", file.toString(), "--roles", roles, "--iterations", "4096", user));
    final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getOutputStream().write((password + "\n").getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException("partita passwd failed: " + out);
    }
  }

  /**
   * A PKCS#12 key store {@code name}.p12 with a self-signed certificate for
   * the host name localhost (not the address 127.0.0.1, so that a client
   * connecting by address sees a name mismatch), and that certificate as
   * {@code name}.pem.
   */
  static Path keyStore(Path dir, String name) throws IOException, InterruptedException {
    final Path store = dir.resolve(name + ".p12");
    keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
        "-dname", "CN=" + name, "-ext", "SAN=dns:localhost", "-storetype", "PKCS12",
        "-keystore", store.toString(), "-storepass", STORE_PASSWORD);
    keytool("-exportcert", "-rfc", "-alias", name, "-keystore", store.toString(), "-storepass", STORE_PASSWORD,
        "-file", dir.resolve(name + ".pem").toString());
    return store;
  }

  private static void keytool(String... args) throws IOException, InterruptedException {
    final List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + out);
    }
  }

  /** A client configuration logging in as {@code user}, no reconnection, 20 s call timeout. */
  static ClientConfig.Builder as(String user, String password) {
    return ClientConfig.builder().clientName("security-test").credentials(user, password).reconnect(false)
        .connectTimeout(Duration.ofSeconds(10)).callTimeout(Duration.ofSeconds(20));
  }

  /** Connects with {@code config} to {@code address}; closes the client if that fails. */
  static PartitaClient connect(String address, ClientConfig config) {
    final PartitaClient client = new PartitaClient(config);
    try {
      client.connect(address);
      return client;
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  static TlsOptions trusting(Path pem) {
    return TlsOptions.builder().trustCertificates(pem).build();
  }

  static String readAll(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }
}
