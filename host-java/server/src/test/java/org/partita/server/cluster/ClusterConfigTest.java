package org.partita.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** Parsing and checking of {@code --cluster}, {@code --host-id}, {@code --kfactor}, {@code --sites-per-host}, {@code --bind}. */
class ClusterConfigTest {
  private static final String THREE = "127.0.0.1:21215,127.0.0.2:21215,127.0.0.3:21215";

  @Test
  void shouldParseThreeHostsWithPositionsAsIds() {
    final ClusterConfig config = ClusterConfig.parse(THREE, 2, 0, 2, "127.0.0.3");
    assertEquals(3, config.hostCount());
    assertEquals(new InetSocketAddress("127.0.0.3", 21215), config.self());
    assertEquals("127.0.0.3", config.bindAddress());
    assertEquals(new InetSocketAddress("127.0.0.2", 21216), config.metadataAddress(1));
    assertEquals(6, config.partitionCount());
    assertEquals(3, config.voterCount());
    assertTrue(config.isVoter());
    assertEquals("hosts=127.0.0.1:21215,127.0.0.2:21215,127.0.0.3:21215 kfactor=0 sites-per-host=2",
        config.canonical());
  }

  @Test
  void shouldTakeTheHostsOwnAddressWhenBindIsNotGiven() {
    assertEquals("127.0.0.2", ClusterConfig.parse(THREE, 1, 0, 1, null).bindAddress());
  }

  @Test
  void shouldChooseAnOddNumberOfVotersAmongTheLowestIds() {
    assertEquals(1, ClusterConfig.parse("127.0.0.1:5000", 0, 0, 1, null).voterCount());
    assertEquals(1, ClusterConfig.parse("127.0.0.1:5000,127.0.0.2:5000", 1, 0, 1, null).voterCount());
    assertFalse(ClusterConfig.parse("127.0.0.1:5000,127.0.0.2:5000", 1, 0, 1, null).isVoter());
    assertEquals(3, ClusterConfig.parse("127.0.0.1:5000,127.0.0.2:5000,127.0.0.3:5000,127.0.0.4:5000", 3, 0, 1,
        null).voterCount());
  }

  @Test
  void shouldRefuseMalformedClusterLists() {
    assertRefused("", 0, 0, 1, null, "--cluster needs host:port");
    assertRefused("127.0.0.1", 0, 0, 1, null, "entry 0 '127.0.0.1' is not host:port");
    assertRefused("127.0.0.1:21215,", 0, 0, 1, null, "entry 1 '' is not host:port");
    assertRefused("127.0.0.1:x", 0, 0, 1, null, "the port 'x' is not a number");
    assertRefused("127.0.0.1:65535", 0, 0, 1, null, "the port must be in [1, 65534]");
    assertRefused("127.0.0.1:0", 0, 0, 1, null, "the port must be in [1, 65534]");
    assertRefused("127.0.0.1:21215,127.0.0.1:21215", 0, 0, 1, null, "entry 1 (127.0.0.1:21215) names the same");
    assertRefused("no-such-host.invalid:21215", 0, 0, 1, null, "unknown host no-such-host.invalid");
  }

  @Test
  void shouldRefuseAHostIdOutsideTheList() {
    assertRefused(THREE, 3, 0, 1, null, "--host-id 3 is not a position in --cluster, which lists 3 host(s): use 0 to 2");
    assertRefused(THREE, -1, 0, 1, null, "--host-id -1");
  }

  @Test
  void shouldRefuseMoreCopiesThanHostsAndAcceptKSafetyWithEnoughHosts() {
    assertRefused("127.0.0.1:5000,127.0.0.2:5000", 0, 2, 1, null, "--kfactor 2 needs 3 hosts");
    assertRefused(THREE, 0, -1, 1, null, "--kfactor must be 0 or more");
    assertRefused(THREE, 0, 1, 1, null, "multiple of");
    final ClusterConfig k1 = ClusterConfig.parse(THREE, 0, 1, 2, null);
    assertEquals(3, k1.partitionCount());
    assertEquals(1, k1.kFactor());
    assertEquals(5, ClusterConfig.parse(THREE.replace("127.0.0.3:21215", "127.0.0.3:21215,127.0.0.4:21215,"
        + "127.0.0.5:21215"), 0, 2, 3, null).voterCount());
  }

  @Test
  void shouldWarnWhenTheMetadataGroupCannotSurviveKLosses() {
    assertNull(ClusterConfig.parse(THREE, 0, 1, 2, null).survivalWarning(), "three hosts survive one loss");
    assertNull(ClusterConfig.parse(THREE, 0, 0, 1, null).survivalWarning());
    final String two = ClusterConfig.parse("127.0.0.1:5000,127.0.0.2:5000", 0, 1, 1, null).survivalWarning();
    assertEquals("--kfactor 1 on 2 hosts: each partition has 2 copies, but the metadata group (1 voter(s): host(s) 0"
        + " to 0) needs a majority of its voters, so losing more than 0 of those stops the cluster: it does not"
        + " survive the loss of any 1 host(s); that needs at least 3 hosts", two);
  }

  @Test
  void shouldRefuseBadSitesPerHost() {
    assertRefused(THREE, 0, 0, 0, null, "--sites-per-host must be at least 1, got 0");
  }

  @Test
  void shouldRefuseABindAddressThatIsNotTheHostsOwn() {
    assertRefused(THREE, 1, 0, 1, "127.0.0.1", "--bind 127.0.0.1 is not host 1's address in --cluster (127.0.0.2)");
  }

  private static void assertRefused(String cluster, int hostId, int k, int sites, String bind, String expected) {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ClusterConfig.parse(cluster, hostId, k, sites, bind));
    assertTrue(e.getMessage().contains(expected), () -> "expected '" + expected + "' in: " + e.getMessage());
  }
}
