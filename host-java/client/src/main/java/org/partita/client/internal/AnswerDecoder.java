package org.partita.client.internal;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.partita.client.ClientResponse;
import org.partita.client.ResultFormatException;
import org.partita.client.ResultTable;
import org.partita.client.ResultTables;
import org.partita.proto.ErrorCode;

/**
 * Reads the frame of an answer, a {@code ServerMessage} holding one {@code
 * InvocationResponse} (proto/client.proto), straight from the frame's bytes,
 * without the generated parser's streams, builders and buffers (about 500
 * bytes per answer). What is made per answer: the {@link ClientResponse},
 * one array holding the result tables' bytes, one view of it, the tables and
 * their list; the texts only when an answer has them (a failure).
 *
 * <p>It follows protobuf's rules for what it reads: fields in any order, the
 * last value of a field sent twice, unknown fields and known fields of an
 * unexpected wire type skipped. A frame of any other shape (a login answer,
 * a topology push, a frame with more than the response) is left to the
 * generated parser: {@link #decode} returns false. A topology push
 * ({@code ServerMessage.topology_push}, field 3) comes once per change of a
 * host's map, not per answer, so the parser's cost does not matter there;
 * and when a frame holds both a response and a push (protobuf keeps the
 * last field of a {@code oneof}), only the generated parser tells which one
 * the frame means.
 *
 * <p>Thread model: one instance per connection handler, used on its event
 * loop only; it keeps its scratch (where each result lies) between answers.
 */
final class AnswerDecoder {
  /** ServerMessage.response: field 2, length-delimited. */
  private static final int RESPONSE_TAG = (2 << 3) | 2;

  private static final int VARINT = 0;
  private static final int FIXED64 = 1;
  private static final int LENGTH_DELIMITED = 2;
  private static final int FIXED32 = 5;

  /** What the last {@link #decode} read; valid until the next. */
  long clientHandle;
  int errorCodeNumber;
  long catalogVersion;
  long topologyVersion;

  private final Cursor in = new Cursor();
  private ByteBuf frame;  // the frame of the last decode, until its response is made
  private int status;
  private int appStatus;
  private long serverNanos;
  private String errorName = "";
  private String message = "";
  private String appStatusMessage = "";
  private int results;
  private int resultBytes;
  private int[] resultStarts = new int[4];
  private int[] resultLengths = new int[4];

  /** A frame whose bytes are not a well-formed message. */
  static final class MalformedFrameException extends Exception {
    private static final long serialVersionUID = 1L;

    MalformedFrameException(String message) {
      super(message);
    }
  }

  /**
   * Reads the fields of the frame between {@code frame}'s reader and writer
   * index (not moving them) when it is one response, and returns true; then
   * {@link #response} makes the answer, before the frame is released.
   * Returns false when the frame is not one response.
   *
   * @throws MalformedFrameException when the response's bytes are not a well-formed message
   */
  boolean decode(ByteBuf frame) throws MalformedFrameException {
    final int begin = frame.readerIndex();
    final int end = frame.writerIndex();
    if (end - begin < 2 || frame.getUnsignedByte(begin) != RESPONSE_TAG) {
      return false;
    }
    in.reset(frame, begin + 1, end);
    final long length = in.varint();
    if (length != end - in.at) {
      return false;  // more than the one response field follows: the generated parser decides
    }
    this.frame = frame;
    readFields();
    return true;
  }

  private void readFields() throws MalformedFrameException {
    clientHandle = 0;
    errorCodeNumber = 0;
    catalogVersion = 0;
    topologyVersion = 0;
    status = 0;
    appStatus = 0;
    serverNanos = 0;
    errorName = "";
    message = "";
    appStatusMessage = "";
    results = 0;
    resultBytes = 0;
    while (in.at < in.end) {
      final long tag = in.varint();
      final int field = (int) (tag >>> 3);
      final int wireType = (int) (tag & 7);
      if (wireType == VARINT && field != 3 && field != 4 && field != 6 && field != 7) {
        final long v = in.varint();
        switch (field) {
          case 1 -> clientHandle = v;
          case 2 -> status = (int) v;
          case 5 -> appStatus = (int) (v >>> 1) ^ -(int) (v & 1);  // sint32: zigzag
          case 8 -> serverNanos = v;
          case 9 -> catalogVersion = v;
          case 10 -> errorCodeNumber = (int) v;
          case 11 -> topologyVersion = v;
          default -> { }  // unknown: skipped
        }
      } else if (wireType == LENGTH_DELIMITED) {
        final int size = in.length();
        switch (field) {
          case 3 -> errorName = in.text(size);
          case 4 -> message = in.text(size);
          case 6 -> appStatusMessage = in.text(size);
          case 7 -> {
            keepResult(results++, in.at, size);
            resultBytes += size;
            in.at += size;
          }
          default -> in.at += size;
        }
      } else {
        in.skip(wireType);
      }
    }
  }

  /**
   * The answer the last {@link #decode} read, its result tables read from a
   * copy of their bytes. REQUIRES: that decode returned true and its frame
   * is not released yet.
   *
   * @throws ResultFormatException when a result is not exactly one table
   */
  ClientResponse response() {
    final ErrorCode errorCode = Responses.errorCode(errorCodeNumber, errorName);
    final List<ResultTable> tables = tables(frame, results, resultBytes);
    frame = null;
    return new ClientResponse(ClientResponse.Status.fromWireCode(status), errorCode, message, tables, appStatus,
        appStatusMessage, serverNanos);
  }

  private void keepResult(int index, int start, int size) {
    if (index == resultStarts.length) {
      resultStarts = java.util.Arrays.copyOf(resultStarts, index * 2);
      resultLengths = java.util.Arrays.copyOf(resultLengths, index * 2);
    }
    resultStarts[index] = start;
    resultLengths[index] = size;
  }

  /** The results' bytes copied into one array (the frame goes back to Netty), each read as one table. */
  private List<ResultTable> tables(ByteBuf frame, int results, int resultBytes) {
    if (results == 0) {
      return List.of();
    }
    final byte[] bytes = new byte[resultBytes];
    int at = 0;
    for (int i = 0; i < results; i++) {
      frame.getBytes(resultStarts[i], bytes, at, resultLengths[i]);
      at += resultLengths[i];
    }
    final ByteBuffer shared = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    if (results == 1) {
      return List.of(ResultTables.parseOneShared(shared, 0, resultBytes));
    }
    final ResultTable[] tables = new ResultTable[results];
    at = 0;
    for (int i = 0; i < results; i++) {
      try {
        tables[i] = ResultTables.parseOneShared(shared, at, at + resultLengths[i]);
      } catch (ResultFormatException e) {
        throw new ResultFormatException(e.offset() - at, "result " + i + ": " + e.getMessage());
      }
      at += resultLengths[i];
    }
    return List.of(tables);
  }

  /** A bounds-checked position in the frame, reused from frame to frame. */
  private static final class Cursor {
    private ByteBuf buf;
    private int at;
    private int end;

    void reset(ByteBuf buf, int at, int end) {
      this.buf = buf;
      this.at = at;
      this.end = end;
    }

    long varint() throws MalformedFrameException {
      long value = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (at >= end) {
          throw new MalformedFrameException("truncated varint at byte " + at);
        }
        final int b = buf.getUnsignedByte(at++);
        value |= (long) (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          return value;
        }
      }
      throw new MalformedFrameException("varint longer than 10 bytes at byte " + at);
    }

    /** A length prefix, checked against what is left. */
    int length() throws MalformedFrameException {
      final long size = varint();
      if (size > end - at) {
        throw new MalformedFrameException("a field of " + size + " bytes at byte " + at + " runs past the frame's "
            + end + " bytes");
      }
      return (int) size;
    }

    String text(int size) {
      if (size == 0) {
        return "";
      }
      final String s = buf.toString(at, size, StandardCharsets.UTF_8);
      at += size;
      return s;
    }

    void skip(int wireType) throws MalformedFrameException {
      switch (wireType) {
        case VARINT -> varint();
        case FIXED64 -> advance(8);
        case LENGTH_DELIMITED -> at += length();
        case FIXED32 -> advance(4);
        default -> throw new MalformedFrameException("wire type " + wireType + " at byte " + at);
      }
    }

    private void advance(int n) throws MalformedFrameException {
      if (n > end - at) {
        throw new MalformedFrameException("truncated fixed-size field at byte " + at);
      }
      at += n;
    }
  }
}
