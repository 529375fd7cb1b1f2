package org.partita.fault;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The run's nftables table: {@link #cut} replaces its rules with a
 * partition's (NftRules), {@link #heal} and {@link #close} remove the table
 * (and so every rule the run added). The table's name is the run's own
 * ({@code tests/fault/run} passes {@code partita_fault_<its pid>} and
 * removes it again when it exits, however the runner ended). Used by the
 * nemesis thread and the main thread one after the other: methods are
 * synchronized.
 */
final class Firewall implements AutoCloseable {
  static final long NFT_TIMEOUT_SECONDS = 20;

  private final String table;
  private final NftRules.Ports ports;
  private boolean installed;

  Firewall(String table, NftRules.Ports ports) {
    this.table = NftRules.checkTable(table);
    this.ports = ports;
  }

  /** The table's name. */
  String table() {
    return table;
  }

  /** Whether the nft command exists (scripts/install-deps installs nftables). */
  static boolean available() {
    try {
      final Process p = new ProcessBuilder("nft", "--version").redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return p.waitFor(NFT_TIMEOUT_SECONDS, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Replaces whatever partition is in force with {@code grudge}. */
  synchronized void cut(Grudge grudge) throws IOException, InterruptedException {
    installed = true;
    apply(NftRules.cut(table, grudge, ports));
  }

  /** Removes every rule of the run (the table). */
  synchronized void heal() throws IOException, InterruptedException {
    if (installed) {
      apply(NftRules.remove(table));
      installed = false;
    }
  }

  /** Removes the table whatever happened; never throws. */
  @Override
  public synchronized void close() {
    try {
      apply(NftRules.remove(table));
      installed = false;
    } catch (IOException | RuntimeException e) {
      System.err.println("fault run: could not remove nftables table inet " + table + ": " + e.getMessage()
          + " (tests/fault/run removes it when it exits)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void apply(String script) throws IOException, InterruptedException {
    final Process nft = new ProcessBuilder("nft", "-f", "-").redirectErrorStream(true).start();
    try (OutputStream in = nft.getOutputStream()) {
      in.write(script.getBytes(StandardCharsets.UTF_8));
    }
    if (!nft.waitFor(NFT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      nft.destroyForcibly();
      throw new IllegalStateException("nft -f did not finish in " + NFT_TIMEOUT_SECONDS + " s");
    }
    final String output = new String(nft.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (nft.exitValue() != 0) {
      throw new IllegalStateException("nft -f failed (exit code " + nft.exitValue() + "): " + output
          + "\nscript:\n" + script);
    }
  }
}
