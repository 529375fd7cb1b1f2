package org.partita.client;

/**
 * Thrown by the synchronous {@link PartitaClient#call(String, Object...)}
 * when the server answered with a status other than SUCCESS. The message is
 * the status, the error name and the server's message; the whole answer is
 * {@link #response()}.
 */
public final class ProcedureCallException extends PartitaClientException {
  private final transient ClientResponse response;

  public ProcedureCallException(String procedure, ClientResponse response) {
    super(procedure + ": " + response.status() + (response.errorName().isEmpty() ? "" : " " + response.errorName())
        + (response.message().isEmpty() ? "" : ": " + response.message()));
    this.response = response;
  }

  /** The server's answer. */
  public ClientResponse response() {
    return response;
  }
}
