package org.partita.server.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/**
 * A replica's site reads its leader's invocations with one reader: calls of
 * the same procedure share one name String, and the invocation read is the
 * one the leader sent.
 */
class InvocationReaderTest {
  private final InvocationReader reader = new InvocationReader();

  private Invocation read(Invocation sent) throws MalformedInvocationException {
    return Invocation.fromProto(sent.toProto(), reader);
  }

  @Test
  void shouldReuseTheNameOfConsecutiveCallsOfOneProcedureAndReadEachCallAsSent() throws Exception {
    final Invocation first = read(Invocation.of("Vote", new Object[] {5551234L, 3, 10}, 7, 1));
    final Invocation second = read(Invocation.of("Vote", new Object[] {5559876L, 2, 10}, 7, 2));
    assertSame(first.procedure(), second.procedure());
    assertEquals(2, second.clientSequence());
    assertEquals(7, second.clientId());
    assertArrayEquals(new Object[] {5559876L, 2L, 10L}, second.parameters());

    final Invocation other = read(Invocation.of("Results", new Object[0], 7, 3, 250));
    assertEquals("Results", other.procedure());
    assertEquals(250, other.timeoutMillis());
    assertEquals(0, other.parameterCount());
    final Invocation again = read(Invocation.of("Vote", new Object[] {1L, 1, 1}, 7, 4));
    assertEquals("Vote", again.procedure());
    assertNotSame(first.procedure(), again.procedure(), "only the previous call's name is kept");
  }
}
