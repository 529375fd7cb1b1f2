package org.partita.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The client's SCRAM-SHA-256 steps against the example exchange of RFC 7677, section 3. */
final class ScramClientTest {
  private static final String NONCE = "rOprNGfwEbeRWgbNEkqO";
  private static final String SERVER_FIRST =
      "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";

  @Test
  void shouldReproduceTheRfc7677Exchange() {
    final ScramClient client = new ScramClient("user", "pencil", NONCE);
    assertEquals("n,,n=user,r=rOprNGfwEbeRWgbNEkqO", client.clientFirst());
    assertEquals("c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
        + "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=", client.clientFinal(SERVER_FIRST));
    assertTrue(client.verifyServerFinal("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="));
  }

  @Test
  void shouldRejectAWrongServerSignature() {
    final ScramClient client = new ScramClient("user", "pencil", NONCE);
    client.clientFirst();
    client.clientFinal(SERVER_FIRST);
    assertFalse(client.verifyServerFinal("v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="));
    assertFalse(client.verifyServerFinal("e=other-error"));
    assertFalse(client.verifyServerFinal("v=not base64!"));
  }

  @Test
  void shouldRejectAServerNonceThatDoesNotExtendTheClients() {
    final ScramClient client = new ScramClient("user", "pencil", NONCE);
    client.clientFirst();
    assertThrows(IllegalArgumentException.class,
        () -> client.clientFinal("r=someoneElse,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"));
    assertThrows(IllegalArgumentException.class, () -> client.clientFinal("r=" + NONCE + ",s=W22Z,i=4096"));
  }

  @Test
  void shouldRefuseFewerThan4096Iterations() {
    final ScramClient client = new ScramClient("user", "pencil", NONCE);
    client.clientFirst();
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> client.clientFinal("r=" + NONCE + "x,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=1"));
    assertTrue(e.getMessage().contains("4096"), e.getMessage());
  }

  @Test
  void shouldEscapeAndUnescapeNames() {
    assertEquals("a=3Db=2Cc", Scram.escapeName("a=b,c"));
    assertEquals("a=b,c", Scram.unescapeName("a=3Db=2Cc"));
    assertThrows(IllegalArgumentException.class, () -> Scram.unescapeName("a=4x"));
  }

  @Test
  void shouldRejectMalformedAttributes() {
    assertThrows(IllegalArgumentException.class, () -> Scram.attributes("r=x,r=y"));
    assertThrows(IllegalArgumentException.class, () -> Scram.attributes("garbage"));
    assertThrows(IllegalArgumentException.class, () -> Scram.attributes(""));
  }
}
