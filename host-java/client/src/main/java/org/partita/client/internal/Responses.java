package org.partita.client.internal;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.partita.client.ClientResponse;
import org.partita.client.ResultFormatException;
import org.partita.client.ResultTable;
import org.partita.client.proto.InvocationResponse;
import org.partita.proto.ErrorCode;

/** Turns an InvocationResponse into the {@link ClientResponse} callers see. Stateless. */
final class Responses {
  private Responses() {}

  /**
   * The answer with its result tables read in place from the message's bytes.
   *
   * @throws ResultFormatException when a result is not exactly one table
   */
  static ClientResponse toClientResponse(InvocationResponse r) {
    final List<ResultTable> tables = new ArrayList<>(r.getResultsCount());
    for (int i = 0; i < r.getResultsCount(); i++) {
      final ByteString bytes = r.getResults(i);
      final ByteBuffer in = bytes.asReadOnlyByteBuffer();
      final ResultTable table = ResultTable.read(in);
      if (in.hasRemaining()) {
        throw new ResultFormatException(in.position(), "result " + i + " has " + in.remaining()
            + " bytes after its table");
      }
      tables.add(table);
    }
    return new ClientResponse(ClientResponse.Status.fromWireCode(r.getStatusValue()),
        errorCode(r.getErrorCode(), r.getErrorName()),
        r.getMessage(), tables, r.getAppStatus(), r.getAppStatusMessage(), r.getServerNanos());
  }

  /** The answer's error code: the number when the server sent a known one, else the code its name names. */
  static ErrorCode errorCode(int number, String name) {
    if (number != 0) {
      final ErrorCode code = ErrorCode.forNumber(number);
      if (code != null) {
        return code;
      }
    }
    return ClientResponse.errorCodeNamed(name);
  }
}
