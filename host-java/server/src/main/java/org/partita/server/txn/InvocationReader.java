package org.partita.server.txn;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads invocations received as bytes on one thread without a new envelope
 * per call and, while calls name the same procedure as the previous one,
 * without a new name String (whose hash, computed once, then serves every
 * later lookup of that procedure): the client port's
 * {@code InvocationDecoder} and a replica's site decoding its leader's items
 * each keep one.
 *
 * <p>Not thread-safe: one per thread.
 */
public final class InvocationReader {
  private final InvocationCodec.Envelope envelope = new InvocationCodec.Envelope();
  private byte[] lastNameBytes = new byte[0];
  private String lastName = "";

  /**
   * Checks {@code message}'s structure ({@link InvocationCodec#scan}) into
   * this reader's envelope, which stays valid until the next scan.
   *
   * @throws MalformedInvocationException when the bytes are not a well-formed message
   */
  public InvocationCodec.Envelope scan(byte[] message) throws MalformedInvocationException {
    return InvocationCodec.scan(message, envelope);
  }

  /**
   * The procedure name of the message just {@link #scan}ned, reusing the
   * previous call's String when the bytes are the same.
   */
  public String procedure(byte[] message) {
    final int at = envelope.procedureOffset();
    final int end = at + envelope.procedureLength();
    if (Arrays.equals(message, at, end, lastNameBytes, 0, lastNameBytes.length)) {
      return lastName;
    }
    lastNameBytes = Arrays.copyOfRange(message, at, end);
    lastName = new String(lastNameBytes, StandardCharsets.UTF_8);
    return lastName;
  }
}
