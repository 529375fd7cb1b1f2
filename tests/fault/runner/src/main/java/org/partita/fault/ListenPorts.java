package org.partita.fault;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * The ports a run's hosts listen on: client, HTTP and internal, the
 * metadata port being internal + 1. They are drawn below the kernel's
 * ephemeral range ({@code /proc/sys/net/ipv4/ip_local_port_range}), where
 * the kernel never gives an outgoing connection its local port: a port
 * drawn inside that range and found free could be taken by any process's
 * next connection before the host binds it (a campaign run was lost that
 * way). Another process may still bind a drawn port itself; {@link
 * ClusterHosts#startAll} then starts the cluster again on new ports.
 * Stateless apart from its random source.
 */
final class ListenPorts {
  static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
  /** The lowest port drawn: above the well-known and most registered services' ports. */
  static final int LOWEST = 10_000;
  /** Drawn from when the ephemeral range leaves too little room below it. */
  static final int FALLBACK_LOW = 30_000;
  static final int FALLBACK_HIGH = 50_000;
  private static final int ATTEMPTS = 1_000;

  private final Random random = new Random();
  private final int low;
  private final int high;

  /** Draws from [low, high). */
  ListenPorts(int low, int high) {
    if (low >= high - 1) {
      throw new IllegalArgumentException("no ports in [" + low + ", " + high + ")");
    }
    this.low = low;
    this.high = high;
  }

  /** Ports below this machine's ephemeral range, or the fallback range when it cannot be read or starts too low. */
  static ListenPorts belowEphemeralRange() {
    try {
      return below(Files.readString(EPHEMERAL_RANGE, StandardCharsets.US_ASCII));
    } catch (IOException e) {
      return new ListenPorts(FALLBACK_LOW, FALLBACK_HIGH);
    }
  }

  /** Ports below the ephemeral range that {@code rangeFile} (the proc file's text: "LOW HIGH") gives. */
  static ListenPorts below(String rangeFile) {
    final String[] bounds = rangeFile.trim().split("\\s+");
    try {
      final int ephemeralLow = Integer.parseInt(bounds[0]);
      if (ephemeralLow - LOWEST >= 2_000) {
        return new ListenPorts(LOWEST, ephemeralLow);
      }
    } catch (NumberFormatException e) {
      // Unreadable: the fallback below.
    }
    return new ListenPorts(FALLBACK_LOW, FALLBACK_HIGH);
  }

  int low() {
    return low;
  }

  int high() {
    return high;
  }

  /**
   * Client, HTTP and internal ports, each free on every one of the first
   * {@code hosts} host addresses, the internal one with its successor (the
   * metadata port) free too; all four distinct.
   */
  int[] draw(int hosts) throws IOException {
    final int[] ports = new int[3];
    int found = 0;
    final Set<Integer> taken = new TreeSet<>();
    for (int attempt = 0; attempt < ATTEMPTS && found < 3; attempt++) {
      final int port = low + random.nextInt(high - 1 - low);
      final boolean internal = found == 2;
      if (taken.contains(port) || taken.contains(port + 1)
          || !free(port, hosts) || (internal && !free(port + 1, hosts))) {
        continue;
      }
      taken.add(port);
      taken.add(port + 1);
      ports[found++] = port;
    }
    if (found < 3) {
      throw new IOException("found no free ports in [" + low + ", " + high + ") on 127.0.0.1-127.0.0." + hosts
          + " in " + ATTEMPTS + " attempts");
    }
    return ports;
  }

  private static boolean free(int port, int hosts) {
    for (int h = 0; h < hosts; h++) {
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new InetSocketAddress(InetAddress.getByName(ClusterHosts.hostAddress(h)), port));
      } catch (IOException e) {
        return false;
      }
    }
    return true;
  }
}
