package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.proto.ErrorCode;
import org.partita.client.ValueType;
import org.partita.proto.cluster.ForwardedAnswer;
import org.partita.proto.cluster.FragmentAnswer;
import org.partita.proto.cluster.FragmentRelease;
import org.partita.proto.cluster.FragmentRequest;
import org.partita.proto.txn.TxnHeader;

/**
 * The database's side of the multi-partition messages between hosts, with
 * bad input and without a network: a forwarded call's response survives
 * its encoding (tables, statuses, application status) and a malformed one
 * becomes an error naming the host; the steps a partition's leader serves
 * are refused with their reason for a partition it does not lead, a
 * transaction it never joined, or no step at all, and a release of a part
 * never joined is simply done.
 */
class MultiPartitionMessagesTest {
  @Test
  void shouldCarryAForwardedResponseWhole() throws Exception {
    final ResultTable table = new ResultTableBuilder().column("N", ValueType.BIGINT).row(42L).row(7L)
        .build();
    final ClientResponse sent = ClientResponse.success(List.of(table)).withAppStatus(3, "three");
    final ForwardedAnswer wire = ForwardedCalls.encode(11, sent);
    assertEquals(11, wire.getRequestId());
    final ClientResponse received = ForwardedCalls.decode(ForwardedAnswer.parseFrom(wire.toByteArray()), 0);
    assertTrue(received.ok(), received.toString());
    assertEquals(3, received.appStatus());
    assertEquals("three", received.appStatusMessage());
    final ResultTable back = received.results().get(0);
    assertTrue(back.advanceRow());
    assertEquals(42L, back.getLong(0));
    assertTrue(back.advanceRow());
    assertEquals(7L, back.getLong(0));

    final ClientResponse refused = ForwardedCalls.decode(ForwardedCalls.encode(12, ClientResponse.failure(
        ClientResponse.Status.REJECTED, ErrorCode.ERROR_CODE_NOT_LEADER, "no")), 2);
    assertEquals(ClientResponse.Status.REJECTED, refused.status());
    assertEquals(ErrorCode.ERROR_CODE_NOT_LEADER, refused.errorCode());
    assertEquals("no", refused.message());
  }

  @Test
  void shouldAnswerAMalformedForwardedResponseAsAnErrorNamingTheHost() throws Exception {
    final ClientResponse garbage = ForwardedCalls.decode(ForwardedAnswer.newBuilder().setStatus(1)
        .addResults(ByteString.copyFrom(new byte[] {9, 0, 0, 0, 1})).build(), 2);
    assertEquals(ErrorCode.ERROR_CODE_INTERNAL, garbage.errorCode(), garbage.toString());
    assertTrue(garbage.message().contains("host 2 ran the forwarded call but its answer is malformed"),
        garbage.message());
    final ResultTable table = new ResultTableBuilder().column("N", ValueType.BIGINT).row(1L).build();
    final ByteString trailing = ForwardedCalls.encode(1, ClientResponse.success(List.of(table))).getResults(0)
        .concat(ByteString.copyFrom(new byte[] {0}));
    final ClientResponse extra = ForwardedCalls.decode(ForwardedAnswer.newBuilder().setStatus(1)
        .addResults(trailing).build(), 1);
    assertEquals(ErrorCode.ERROR_CODE_INTERNAL, extra.errorCode(), extra.toString());
    assertTrue(extra.message().contains("after a result table"), extra.message());
    final ClientResponse unknownCode = ForwardedCalls.decode(ForwardedAnswer.newBuilder().setStatus(5)
        .setErrorCode(99_999).setMessage("m").build(), 0);
    assertEquals(ErrorCode.ERROR_CODE_INTERNAL, unknownCode.errorCode());
  }

  @Test
  void shouldRefuseStepsItCannotServeWithTheirReason() throws Exception {
    try (FragmentServer server = new FragmentServer(1, partition -> null)) {
      final TxnHeader txn = TxnHeader.newBuilder().setPartition(65535).setEpoch(1).setSequence(4).build();
      final FragmentRequest join = FragmentRequest.newBuilder().setRequestId(1).setPartition(0).setTransaction(txn)
          .setJoin(org.partita.proto.txn.MultiPartitionJoin.getDefaultInstance()).build();
      FragmentAnswer answer = serve(server, join);
      assertEquals(ErrorCode.ERROR_CODE_NOT_LEADER.getNumber(), answer.getError().getErrorCode());
      assertTrue(answer.getError().getMessage().contains("host 1 does not lead partition 0"),
          answer.getError().getMessage());

      answer = serve(server, join.toBuilder().setRequestId(2).setBatch(ByteString.copyFrom(new byte[3])).build());
      assertEquals(2, answer.getRequestId());
      assertEquals(ErrorCode.ERROR_CODE_BAD_REQUEST.getNumber(), answer.getError().getErrorCode());
      assertTrue(answer.getError().getMessage().contains("has no open part in transaction 1:4"),
          answer.getError().getMessage());

      answer = serve(server, join.toBuilder().setRequestId(3).setCommit(true).build());
      assertEquals(ErrorCode.ERROR_CODE_BAD_REQUEST.getNumber(), answer.getError().getErrorCode());

      answer = serve(server, FragmentRequest.newBuilder().setRequestId(4).build());
      assertTrue(answer.getError().getMessage().contains("without a step"), answer.getError().getMessage());

      answer = serve(server, join.toBuilder().setRequestId(5).setRelease(FragmentRelease.getDefaultInstance())
          .build());
      assertTrue(answer.hasDone(), "a part never joined has nothing to release");
    }
  }

  private static FragmentAnswer serve(FragmentServer server, FragmentRequest request) throws Exception {
    final CompletableFuture<FragmentAnswer> answer = new CompletableFuture<>();
    server.serve(request, answer::complete);
    return answer.get(10, TimeUnit.SECONDS);
  }
}
