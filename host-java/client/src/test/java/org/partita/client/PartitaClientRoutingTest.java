package org.partita.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.partita.client.ClientTestSupport.closeQuietly;
import static org.partita.client.ClientTestSupport.eventually;
import static org.partita.client.ClientTestSupport.route;
import static org.partita.client.ClientTestSupport.testConfig;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.proto.CallStatus;
import org.partita.client.proto.Host;
import org.partita.client.proto.Invocation;
import org.partita.client.proto.LoginResponse;
import org.partita.client.proto.ProcedureRouting;

/**
 * Two fake servers are hosts 0 and 1 of a 4-partition cluster whose
 * partitions 0 and 2 are led by host 0 and 1 and 3 by host 1.
 */
class PartitaClientRoutingTest {
  private static final Path VECTORS = Path.of("../../tests/vectors/partition_hash.tsv");
  private static final List<Integer> LEADERS = List.of(0, 1, 0, 1);
  private static final int OF_4_COLUMN = 6;
  private static final List<ProcedureRouting> ROUTES = List.of(
      route("Vote", true, 0, ValueType.BIGINT),
      route("ByKey", true, 1, ValueType.VARCHAR),
      route("ByBytes", true, 0, ValueType.VARBINARY),
      route("Everywhere", false, 0, ValueType.INTEGER));

  private final FakeServer[] hosts = new FakeServer[2];
  private PartitaClient client;

  @AfterEach
  void tearDown() {
    closeQuietly(client, hosts[0], hosts[1]);
  }

  private void startHosts() throws Exception {
    for (int h = 0; h < 2; h++) {
      hosts[h] = new FakeServer(cluster(h, ROUTES));
      hosts[h].start(0);
    }
    client = new PartitaClient(testConfig().build());
    client.connect(hosts[0].address());
    client.connect(hosts[1].address());
  }

  private static LoginResponse cluster(int hostId, List<ProcedureRouting> routes) {
    return FakeServer.loginResponse(hostId, 4, LEADERS, routes).toBuilder().clearTopology()
        .setTopology(FakeServer.loginResponse(hostId, 4, LEADERS, routes).getTopology().toBuilder().clearHosts()
            .addHosts(Host.newBuilder().setHostId(0).setAddress("127.0.0.1").setClientPort(1))
            .addHosts(Host.newBuilder().setHostId(1).setAddress("127.0.0.1").setClientPort(2)))
        .build();
  }

  /** The host that received the one invocation just sent, and the invocation. */
  private FakeServer.Received landed(int[] host) throws InterruptedException {
    for (int h = 0; h < 2; h++) {
      final FakeServer.Received r = hosts[h].received.poll();
      if (r != null) {
        host[0] = h;
        assertNull(hosts[1 - h].received.poll(), "one call arrived at both hosts");
        return r;
      }
    }
    throw new AssertionError("the call arrived nowhere");
  }

  private void assertRoutedTo(int partition, String procedure, Object... parameters) throws InterruptedException {
    client.call(procedure, parameters);
    final int[] host = new int[1];
    final Invocation inv = landed(host).invocation();
    assertEquals(LEADERS.get(partition), host[0], procedure + " partition " + partition);
    assertEquals(partition + 1, inv.getRoutedPartitionPlusOne(), procedure);
  }

  @Test
  @Timeout(20)
  void shouldSendEachCallToTheLeaderOfItsPartition() throws Exception {
    startHosts();
    int checked = 0;
    for (String line : Files.readAllLines(VECTORS, StandardCharsets.UTF_8)) {
      if (line.startsWith("#") || line.isBlank()) {
        continue;
      }
      final String[] f = line.split("\t", -1);
      final int partition = Integer.parseInt(f[OF_4_COLUMN]);
      switch (f[0]) {
        case "BIGINT" -> assertRoutedTo(partition, "Vote", Long.parseLong(f[1]), "other");
        case "VARCHAR" -> assertRoutedTo(partition, "ByKey", 0L, unescape(f[1]));
        default -> assertRoutedTo(partition, "ByBytes", HexFormat.of().parseHex(f[1]));
      }
      checked++;
    }
    assertEquals(19, checked);
  }

  @Test
  @Timeout(10)
  void shouldHashIntegersOfEveryWidthAndCaseAlike() throws Exception {
    startHosts();
    // 6175551234 is in partition 1 of 4, 42 in partition 1, 0 in partition 0 (shared vectors).
    assertRoutedTo(1, "vote", 6175551234L);
    assertRoutedTo(1, "VOTE", 42);
    assertRoutedTo(1, "Vote", (short) 42);
    assertRoutedTo(0, "Vote", (byte) 0);
    assertRoutedTo(1, "Vote", new java.math.BigDecimal("42"));
  }

  @Test
  @Timeout(10)
  void shouldSendUnroutableCallsRoundRobin() throws Exception {
    startHosts();
    final int[] perHost = new int[2];
    final Object[][] calls = {{"Everywhere", 1L}, {"Everywhere", 2L}, {"@AdHoc", "SELECT 1"}, {"Unknown", 5L},
        {"Vote", "not a number"}, {"Vote", 1.5}};
    for (Object[] call : calls) {
      client.call((String) call[0], call[1]);
      final int[] host = new int[1];
      assertEquals(0, landed(host).invocation().getRoutedPartitionPlusOne(), (String) call[0]);
      perHost[host[0]]++;
    }
    assertEquals(3, perHost[0]);
    assertEquals(3, perHost[1]);
  }

  @Test
  @Timeout(10)
  void shouldSendToAnotherHostWhenTheLeaderIsNotConnected() throws Exception {
    hosts[0] = new FakeServer(cluster(0, ROUTES));
    hosts[0].start(0);
    client = new PartitaClient(testConfig().build());
    client.connect(hosts[0].address());

    client.call("Vote", 42L);

    final Invocation inv = hosts[0].next().invocation();
    assertEquals(2, inv.getRoutedPartitionPlusOne());
  }

  @Test
  @Timeout(10)
  void shouldRefreshRoutesWhenAnAnswerCarriesANewerCatalogVersion() throws Exception {
    hosts[0] = new FakeServer(FakeServer.loginResponse(0, 4, List.of(0, 0, 0, 0), List.of()));
    hosts[0].onInvocation = (s, inv) -> s.respond(answer(inv, true));
    hosts[0].start(0);
    client = new PartitaClient(testConfig().build());
    client.connect(hosts[0].address());

    client.call("NewProc", 42L);
    assertEquals(0, hosts[0].next().invocation().getRoutedPartitionPlusOne());
    eventually("routes of catalog version 2", () -> client.topology().catalogVersion() == 2);
    final Invocation refresh = hosts[0].next().invocation();
    assertEquals("@SystemCatalog", refresh.getProcedure());
    assertEquals("PROCEDURES", refresh.getParameters(0).getText());

    client.call("NewProc", 42L);
    assertEquals(2, hosts[0].next().invocation().getRoutedPartitionPlusOne());
    assertNull(client.statistics().snapshot().procedure("@SystemCatalog"), "internal calls are not counted");
  }

  @Test
  @Timeout(10)
  void shouldKeepTheOldRoutesWhenTheRefreshFails() throws Exception {
    hosts[0] = new FakeServer(FakeServer.loginResponse(0, 4, List.of(0, 0, 0, 0),
        List.of(route("Vote", true, 0, ValueType.BIGINT))));
    hosts[0].onInvocation = (s, inv) -> s.respond(answer(inv, false));
    hosts[0].start(0);
    client = new PartitaClient(testConfig().build());
    client.connect(hosts[0].address());

    client.call("Vote", 42L);
    hosts[0].next();
    assertEquals("@SystemCatalog", hosts[0].next().invocation().getProcedure());

    assertEquals(1, client.topology().catalogVersion());
    client.call("Vote", 42L);
    assertEquals(2, hosts[0].next().invocation().getRoutedPartitionPlusOne());
  }

  @Test
  @Timeout(10)
  void shouldReadANewerTopologyAgainWhenTheHostAskedHadNotFollowedItYet() throws Exception {
    // Hosts follow a new map some milliseconds apart: the host asked for topology 2 may still answer with 1.
    final AtomicInteger reads = new AtomicInteger();
    hosts[0] = new FakeServer(FakeServer.loginResponse(0, 4, List.of(0, 0, 0, 0), List.of()));
    hosts[0].onInvocation = (s, inv) -> {
      final var response = FakeServer.success(inv.getClientHandle()).setTopologyVersion(2);
      if (inv.getProcedure().equals("@SystemCatalog")) {
        final boolean followed = reads.incrementAndGet() > 2;
        final List<Integer> leaders = followed ? List.of(0, 0, 0, 1) : List.of(0, 0, 0, 0);
        final ResultTableBuilder table = new ResultTableBuilder().column("PARTITION_ID", ValueType.BIGINT)
            .column("LEADER_HOST_ID", ValueType.BIGINT).column("TOPOLOGY_VERSION", ValueType.BIGINT);
        for (int p = 0; p < 4; p++) {
          table.row((long) p, (long) leaders.get(p), followed ? 2L : 1L);
        }
        response.addResults(ByteString.copyFrom(table.build().bytes()));
      }
      s.respond(response);
    };
    hosts[0].start(0);
    client = new PartitaClient(testConfig().build());
    client.connect(hosts[0].address());

    client.call("Anything", 1L);
    eventually("the leaders of topology 2", () -> client.topology().partitionLeaders().equals(List.of(0, 0, 0, 1)));
    assertTrue(reads.get() >= 3, "two stale tables, then the one of topology 2: " + reads.get() + " reads");
  }

  /**
   * Host 1 went away and came back while the client's reconnection to it
   * waits out a long backoff; host 0 answers NOT_LEADER with a newer
   * topology naming host 1 the leader again (leader rebalancing after a
   * rejoin): the connection dials at once and the call waits for it, rather
   * than going round-robin to host 0 until its resends run out.
   */
  @Test
  @Timeout(15)
  void shouldDialALeaderWaitingToReconnectAtOnceAndSendTheCallAnsweredNotLeaderThere() throws Exception {
    for (int h = 0; h < 2; h++) {
      hosts[h] = new FakeServer(cluster(h, ROUTES));
      hosts[h].start(0);
    }
    client = new PartitaClient(testConfig().reconnectBackoff(Duration.ofSeconds(60), Duration.ofSeconds(60))
        .build());
    client.connect(hosts[0].address());
    client.connect(hosts[1].address());
    final int port = hosts[1].port();
    hosts[1].close();
    eventually("host 1's connection is down", () -> client.connectedServers().size() == 1);
    hosts[1].start(port);
    hosts[0].onInvocation = (s, inv) -> {
      final var response = FakeServer.success(inv.getClientHandle()).setTopologyVersion(2);
      if (inv.getProcedure().equals("@SystemCatalog")) {
        final ResultTableBuilder table = new ResultTableBuilder().column("PARTITION_ID", ValueType.BIGINT)
            .column("LEADER_HOST_ID", ValueType.BIGINT).column("TOPOLOGY_VERSION", ValueType.BIGINT);
        for (int p = 0; p < LEADERS.size(); p++) {
          table.row((long) p, (long) LEADERS.get(p), 2L);
        }
        response.addResults(ByteString.copyFrom(table.build().bytes()));
      } else {
        response.setStatus(CallStatus.CALL_STATUS_GRACEFUL_FAILURE).setErrorName("NOT_LEADER")
            .setErrorCode(org.partita.proto.ErrorCode.ERROR_CODE_NOT_LEADER_VALUE)
            .setMessage("partition 1 is led by host 1, not by this host (0)");
      }
      s.respond(response);
    };

    final ClientResponse answer = client.call("Vote", 42L);

    assertTrue(answer.ok(), answer.errorCode() + " " + answer.message());
    assertEquals(2, hosts[1].next().invocation().getRoutedPartitionPlusOne(), "the call ran on host 1");
  }

  /**
   * Host 1 leads partition 1 by topology 3, which the client follows, but
   * has not followed it itself yet (hosts follow a new map some milliseconds
   * apart: the client heard of it from another host): it answers NOT_LEADER
   * with topology 2 three times. The call waits for it and runs there, rather
   * than spending its resends at once and failing with NOT_LEADER.
   */
  @Test
  @Timeout(15)
  void shouldSendACallAgainToALeaderBehindTheClientsTopologyUntilItFollows() throws Exception {
    for (int h = 0; h < 2; h++) {
      final LoginResponse login = cluster(h, ROUTES);
      hosts[h] = new FakeServer(login.toBuilder().setTopology(login.getTopology().toBuilder().setTopologyVersion(3))
          .build());
      hosts[h].start(0);
    }
    final AtomicInteger refusals = new AtomicInteger();
    hosts[1].onInvocation = (s, inv) -> {
      final var response = FakeServer.success(inv.getClientHandle()).setTopologyVersion(3);
      if (refusals.getAndIncrement() < 3) {
        response.setTopologyVersion(2).setStatus(CallStatus.CALL_STATUS_GRACEFUL_FAILURE).setErrorName("NOT_LEADER")
            .setErrorCode(org.partita.proto.ErrorCode.ERROR_CODE_NOT_LEADER_VALUE)
            .setMessage("partition 1 is led by host 0, not by this host (1); topology version 2");
      }
      s.respond(response);
    };
    client = new PartitaClient(testConfig().build());
    client.connect(hosts[0].address());
    client.connect(hosts[1].address());

    final ClientResponse answer = client.call("Vote", 42L);

    assertTrue(answer.ok(), answer.errorCode() + " " + answer.message());
    assertEquals(4, refusals.get(), "three refusals, then the call ran on host 1");
    assertNull(hosts[0].received.poll(), "never sent to host 0, which does not lead partition 1 by topology 3");
  }

  /**
   * A leader that never follows the client's topology: the call's waits end
   * within its timeout with the NOT_LEADER answer (it was not run), not a
   * timeout.
   */
  @Test
  @Timeout(15)
  void shouldDeliverNotLeaderWhenTheHostBehindNeverFollowsWithinTheCallsTime() throws Exception {
    final LoginResponse login = cluster(1, ROUTES);
    hosts[1] = new FakeServer(login.toBuilder().setTopology(login.getTopology().toBuilder().setTopologyVersion(3))
        .build());
    hosts[1].onInvocation = (s, inv) -> s.respond(FakeServer.success(inv.getClientHandle()).setTopologyVersion(2)
        .setStatus(CallStatus.CALL_STATUS_GRACEFUL_FAILURE).setErrorName("NOT_LEADER")
        .setErrorCode(org.partita.proto.ErrorCode.ERROR_CODE_NOT_LEADER_VALUE).setMessage("not led here"));
    hosts[1].start(0);
    client = new PartitaClient(testConfig().callTimeout(Duration.ofMillis(300)).build());
    client.connect(hosts[1].address());

    final ClientResponse answer = assertThrows(ProcedureCallException.class, () -> client.call("Vote", 42L))
        .response();

    assertEquals(org.partita.proto.ErrorCode.ERROR_CODE_NOT_LEADER, answer.errorCode(), answer.message());
  }

  /** Answers at catalog version 2; @SystemCatalog PROCEDURES with NewProc's route, or refused. */
  private static org.partita.client.proto.InvocationResponse.Builder answer(Invocation inv, boolean serveCatalog) {
    final var response = FakeServer.success(inv.getClientHandle()).setCatalogVersion(2);
    if (!inv.getProcedure().equals("@SystemCatalog")) {
      return response;
    }
    if (!serveCatalog) {
      return response.setStatus(CallStatus.CALL_STATUS_REJECTED).setErrorName("NOT_FOUND").setMessage("no catalog");
    }
    final ResultTable table = new ResultTableBuilder().column("PROCEDURE_NAME", ValueType.VARCHAR)
        .column("SINGLE_PARTITION", ValueType.TINYINT).column("PARTITION_PARAMETER", ValueType.INTEGER)
        .column("PARTITION_TYPE", ValueType.INTEGER).row("NewProc", 1, 0, ValueType.BIGINT.code())
        .row("Multi", 0, 0, 0).build();
    return response.addResults(ByteString.copyFrom(table.bytes()));
  }

  private static String unescape(String s) {
    return s.replace("\\t", "\t").replace("\\n", "\n").replace("\\\\", "\\");
  }
}
