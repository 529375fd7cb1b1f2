package org.partita.server.network;

import io.netty.buffer.ByteBuf;
import java.util.List;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.client.proto.InvocationResponse;
import org.partita.client.proto.ServerMessage;

/**
 * Writes one framed {@code ServerMessage{response: InvocationResponse}}
 * (proto/client.proto): the 4-byte big-endian frame length, then the
 * message. Result tables are passed on byte for byte as the site copied
 * them from the engine, never decoded or re-encoded ({@link OutboundFrames}
 * decides whether a table is copied into the frame or gathered in place).
 * Everything that could fail (sizes, the response's fields) is computed
 * before the first byte is written. Stateless.
 */
final class ResponseWriter {
  private ResponseWriter() {}

  /** Appends the frame answering {@code clientHandle} with {@code response} to {@code frames}. */
  static void write(OutboundFrames frames, long clientHandle, ClientResponse response, long serverNanos,
      long catalogVersion, long topologyVersion) {
    final List<ResultTable> results = response.results();
    final int bodySize = bodySize(clientHandle, response, serverNanos, catalogVersion, topologyVersion);
    final int messageSize = WireFormat.delimitedFieldSize(ServerMessage.RESPONSE_FIELD_NUMBER, bodySize);
    final int frameStart = frames.size();
    ByteBuf out = frames.segment();
    out.ensureWritable(Math.min(4 + messageSize, 1 << 16));
    out.writeInt(messageSize);
    WireFormat.writeDelimitedHeader(out, ServerMessage.RESPONSE_FIELD_NUMBER, bodySize);
    WireFormat.writeVarintField(out, InvocationResponse.CLIENT_HANDLE_FIELD_NUMBER, clientHandle);
    WireFormat.writeVarintField(out, InvocationResponse.STATUS_FIELD_NUMBER, response.status().wireCode());
    WireFormat.writeStringField(out, InvocationResponse.ERROR_NAME_FIELD_NUMBER, response.errorName());
    WireFormat.writeVarintField(out, InvocationResponse.ERROR_CODE_FIELD_NUMBER, errorNumber(response));
    WireFormat.writeStringField(out, InvocationResponse.MESSAGE_FIELD_NUMBER, response.message());
    WireFormat.writeVarintField(out, InvocationResponse.APP_STATUS_FIELD_NUMBER, WireFormat.zigZag(response.appStatus()));
    WireFormat.writeStringField(out, InvocationResponse.APP_STATUS_MESSAGE_FIELD_NUMBER, response.appStatusMessage());
    for (int i = 0; i < results.size(); i++) {
      final ResultTable table = results.get(i);
      WireFormat.writeDelimitedHeader(out, InvocationResponse.RESULTS_FIELD_NUMBER, table.byteSize());
      frames.addTable(table);
      out = frames.segment();
    }
    WireFormat.writeVarintField(out, InvocationResponse.SERVER_NANOS_FIELD_NUMBER, serverNanos);
    WireFormat.writeVarintField(out, InvocationResponse.CATALOG_VERSION_FIELD_NUMBER, catalogVersion);
    WireFormat.writeVarintField(out, InvocationResponse.TOPOLOGY_VERSION_FIELD_NUMBER, topologyVersion);
    if (frames.size() - frameStart != 4 + messageSize) {
      throw new IllegalStateException("response frame size computed as " + (4 + messageSize) + " but wrote "
          + (frames.size() - frameStart));
    }
  }

  private static int bodySize(long clientHandle, ClientResponse response, long serverNanos, long catalogVersion,
      long topologyVersion) {
    int size = WireFormat.varintFieldSize(InvocationResponse.CLIENT_HANDLE_FIELD_NUMBER, clientHandle)
        + WireFormat.varintFieldSize(InvocationResponse.STATUS_FIELD_NUMBER, response.status().wireCode())
        + WireFormat.stringFieldSize(InvocationResponse.ERROR_NAME_FIELD_NUMBER, response.errorName())
        + WireFormat.varintFieldSize(InvocationResponse.ERROR_CODE_FIELD_NUMBER, errorNumber(response))
        + WireFormat.stringFieldSize(InvocationResponse.MESSAGE_FIELD_NUMBER, response.message())
        + WireFormat.varintFieldSize(InvocationResponse.APP_STATUS_FIELD_NUMBER, WireFormat.zigZag(response.appStatus()))
        + WireFormat.stringFieldSize(InvocationResponse.APP_STATUS_MESSAGE_FIELD_NUMBER, response.appStatusMessage())
        + WireFormat.varintFieldSize(InvocationResponse.SERVER_NANOS_FIELD_NUMBER, serverNanos)
        + WireFormat.varintFieldSize(InvocationResponse.CATALOG_VERSION_FIELD_NUMBER, catalogVersion)
        + WireFormat.varintFieldSize(InvocationResponse.TOPOLOGY_VERSION_FIELD_NUMBER, topologyVersion);
    final List<ResultTable> results = response.results();
    for (int i = 0; i < results.size(); i++) {
      size += WireFormat.delimitedFieldSize(InvocationResponse.RESULTS_FIELD_NUMBER, results.get(i).byteSize());
    }
    return size;
  }

  /** The error code's number (0 on success; proto3 leaves a zero field out). */
  private static long errorNumber(ClientResponse response) {
    return response.ok() ? 0 : response.errorCode().getNumber();
  }

  /** Appends a framed message built by protobuf (login answers: not on the hot path). */
  static void writeMessage(ByteBuf out, ServerMessage message) {
    final byte[] bytes = message.toByteArray();
    out.writeInt(bytes.length).writeBytes(bytes);
  }
}
