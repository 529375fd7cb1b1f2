package org.partita.fault;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * A network partition between hosts (numbered from 0), as the partition
 * nemeses make it: the links cut (unordered pairs of hosts that cannot
 * reach each other on the cluster's internal and metadata ports; clients
 * still reach every host, as in Jepsen's tests), and the hosts cut off
 * from a majority (their metadata voters are cut off as a whole, see
 * {@link NftRules}). Immutable.
 *
 * @param description what the partition is, for the history ("host 2 isolated", …)
 * @param links each cut link as [lower host, higher host]
 * @param minority the hosts on the side without a majority (empty for a bridge, where no host is cut
 *     off from a majority)
 */
record Grudge(String description, Set<List<Integer>> links, Set<Integer> minority) {
  Grudge {
    links = Set.copyOf(links);
    minority = Set.copyOf(minority);
  }

  /** {@code host} cut off from the other {@code hosts - 1}. */
  static Grudge isolate(int host, int hosts) {
    requireHost(host, hosts);
    return halves(List.of(host), hosts, "host " + host + " isolated");
  }

  /**
   * {@code minority} cut off from the rest. REQUIRES: fewer than half the
   * hosts, at least one.
   */
  static Grudge halves(List<Integer> minority, int hosts) {
    return halves(minority, hosts, "hosts " + new TreeSet<>(minority) + " (minority) cut off from "
        + others(minority, hosts) + " (majority)");
  }

  /**
   * A bridge: {@code left} and {@code right} cannot reach each other, and
   * host {@code bridge} reaches both. REQUIRES: the three are disjoint and
   * not empty.
   */
  static Grudge bridge(int bridge, List<Integer> left, List<Integer> right) {
    if (left.isEmpty() || right.isEmpty() || left.contains(bridge) || right.contains(bridge)
        || !Collections.disjoint(left, right)) {
      throw new IllegalArgumentException("a bridge needs two disjoint non-empty sides without the bridge host "
          + bridge + ": " + left + ", " + right);
    }
    final Set<List<Integer>> links = new TreeSet<>(Grudge::compareLinks);
    for (int a : left) {
      for (int b : right) {
        links.add(link(a, b));
      }
    }
    return new Grudge("hosts " + new TreeSet<>(left) + " and " + new TreeSet<>(right) + " cut apart, host "
        + bridge + " bridging them", links, Set.of());
  }

  /**
   * One of the partitions {@code partition} plays, drawn from {@code random}:
   * one host isolated, a random minority cut off, or (with three hosts or
   * more) a bridge. REQUIRES: {@code hosts >= 3}.
   */
  static Grudge random(Random random, int hosts) {
    if (hosts < 3) {
      throw new IllegalArgumentException("a partition needs 3 hosts or more (a minority and a majority), not "
          + hosts);
    }
    final List<Integer> shuffled = new ArrayList<>();
    for (int h = 0; h < hosts; h++) {
      shuffled.add(h);
    }
    Collections.shuffle(shuffled, random);
    switch (random.nextInt(3)) {
      case 0:
        return isolate(shuffled.get(0), hosts);
      case 1:
        return halves(shuffled.subList(0, 1 + random.nextInt(minorityMax(hosts))), hosts);
      default: {
        final int bridge = shuffled.get(0);
        final List<Integer> rest = shuffled.subList(1, hosts);
        final int cut = 1 + random.nextInt(rest.size() - 1);
        return bridge(bridge, rest.subList(0, cut), rest.subList(cut, rest.size()));
      }
    }
  }

  /** The largest minority of {@code hosts}: fewer than half. */
  static int minorityMax(int hosts) {
    return (hosts - 1) / 2;
  }

  private static Grudge halves(List<Integer> minority, int hosts, String description) {
    if (minority.isEmpty() || minority.size() > minorityMax(hosts)) {
      throw new IllegalArgumentException("a minority of " + hosts + " hosts has 1 to " + minorityMax(hosts)
          + " hosts, not " + minority.size());
    }
    final Set<List<Integer>> links = new TreeSet<>(Grudge::compareLinks);
    for (int a : minority) {
      requireHost(a, hosts);
      for (int b : others(minority, hosts)) {
        links.add(link(a, b));
      }
    }
    return new Grudge(description, links, Set.copyOf(minority));
  }

  private static List<Integer> others(List<Integer> side, int hosts) {
    final List<Integer> out = new ArrayList<>();
    for (int h = 0; h < hosts; h++) {
      if (!side.contains(h)) {
        out.add(h);
      }
    }
    return out;
  }

  private static List<Integer> link(int a, int b) {
    return List.of(Math.min(a, b), Math.max(a, b));
  }

  private static int compareLinks(List<Integer> x, List<Integer> y) {
    return x.get(0).equals(y.get(0)) ? Integer.compare(x.get(1), y.get(1)) : Integer.compare(x.get(0), y.get(0));
  }

  private static void requireHost(int host, int hosts) {
    if (host < 0 || host >= hosts) {
      throw new IllegalArgumentException("host " + host + " is not one of the " + hosts + " hosts (0 to "
          + (hosts - 1) + ")");
    }
  }
}
